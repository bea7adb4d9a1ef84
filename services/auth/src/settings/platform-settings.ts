/** The platform setting that closes sign-up (spec 01 §8 ERR_USER_CREATION_DISABLED): `enabled` or `disabled`. */
export const USER_CREATION_SETTING = 'userCreation';

/**
 * Settings of the platform, not of a company: kept on the provider's company (the first super user's),
 * changed by super users only, and shown to super users only. Each with its value when created.
 */
export const PLATFORM_SETTINGS: Readonly<Record<string, { initial: string; allowed: readonly string[] }>> = {
  [USER_CREATION_SETTING]: { initial: 'enabled', allowed: ['enabled', 'disabled'] },
};

export const isPlatformSetting = (key: string): boolean => Object.hasOwn(PLATFORM_SETTINGS, key);
