import type { SettingDto } from '@wa/contracts';

/** spec 02 §9: where working hours are kept: nowhere (disabled), on each queue, or on the company. */
export type ScheduleType = 'disabled' | 'queue' | 'company';

/** The settings the Opcoes tab offers (spec 02 §3 "Setting", §9), in its order, each with its choices. */
export const SETTING_CHOICES = [
  { key: 'userRating', values: ['disabled', 'enabled'] },
  { key: 'scheduleType', values: ['disabled', 'queue', 'company'] },
  { key: 'call', values: ['enabled', 'disabled'] },
  { key: 'CheckMsgIsGroup', values: ['enabled', 'disabled'] },
  { key: 'sendGreetingAccepted', values: ['enabled', 'disabled'] },
  { key: 'sendMsgTransfTicket', values: ['enabled', 'disabled'] },
  { key: 'sendGreetingMessageOneQueues', values: ['enabled', 'disabled'] },
  { key: 'chatBotType', values: ['text'] },
  // the platform's: sign-up open or closed (ERR_USER_CREATION_DISABLED), for super users only
  { key: 'userCreation', values: ['enabled', 'disabled'] },
] as const;

/** Settings of the platform, not of the company: shown to super users only. */
export const PLATFORM_SETTING_KEYS: ReadonlySet<string> = new Set(['userCreation']);

export type SelectableSettingKey = (typeof SETTING_CHOICES)[number]['key'];

export interface SelectableSetting {
  key: SelectableSettingKey;
  value: string;
  /** the choices, with a stored value the list does not know kept (shown as it is rather than a wrong one) */
  values: string[];
}

/** The value of a setting, or undefined when the company does not have it (or the list is not there yet). */
export function settingValue(settings: ReadonlyArray<SettingDto> | undefined, key: string): string | undefined {
  return settings?.find((s) => s.key === key)?.value;
}

/** The company's scheduleType; anything unknown (or no setting) is disabled. */
export function scheduleTypeOf(settings: ReadonlyArray<SettingDto> | undefined): ScheduleType {
  const value = settingValue(settings, 'scheduleType');
  return value === 'queue' || value === 'company' ? value : 'disabled';
}

/** The selectors to show: only the keys the server returned (`GET /settings`), in the tab's order; the platform's to super users only. */
export function selectableSettings(settings: ReadonlyArray<SettingDto> | undefined, opts: { isSuper?: boolean } = {}): SelectableSetting[] {
  if (!settings) return [];
  return SETTING_CHOICES.flatMap(({ key, values }) => {
    if (PLATFORM_SETTING_KEYS.has(key) && !opts.isSuper) return [];
    const value = settingValue(settings, key);
    if (value === undefined) return [];
    const known: readonly string[] = values;
    return [{ key, value, values: known.includes(value) ? [...known] : [value, ...known] }];
  });
}

/** A setting changed here: the cached list with its new value (other keys untouched). */
export function withSetting(settings: SettingDto[], key: string, value: string): SettingDto[] {
  return settings.map((s) => (s.key === key ? { ...s, value } : s));
}

/** How the server shows a secret setting that is set: this, then its last 4 characters (a PUT starting with it is ignored). */
export const SECRET_MASK = '••••';

/**
 * The Opcoes tab's "Integrações" (spec 02 §3 "Keys: … ipixc, tokenixc, ipmkauth, clientidmkauth,
 * clientsecretmkauth, asaas"), grouped as the product shows them; `secret` ones come back masked.
 */
export const INTEGRATION_GROUPS = [
  {
    id: 'ixc',
    fields: [
      { key: 'ipixc', secret: false },
      { key: 'tokenixc', secret: true },
    ],
  },
  {
    id: 'mkauth',
    fields: [
      { key: 'ipmkauth', secret: false },
      { key: 'clientidmkauth', secret: false },
      { key: 'clientsecretmkauth', secret: true },
    ],
  },
  { id: 'asaas', fields: [{ key: 'asaas', secret: true }] },
] as const;

export type IntegrationGroupId = (typeof INTEGRATION_GROUPS)[number]['id'];
export type IntegrationKey = (typeof INTEGRATION_GROUPS)[number]['fields'][number]['key'];

export interface IntegrationField {
  key: IntegrationKey;
  /** as the server gave it: for a secret '' (not set) or masked (`••••6789`) */
  value: string;
  secret: boolean;
}

export interface IntegrationGroup {
  id: IntegrationGroupId;
  fields: IntegrationField[];
}

/** Is this one of the settings the server keeps secret (never returned whole)? */
export function isSecretSetting(key: string): boolean {
  return INTEGRATION_GROUPS.some((g) => g.fields.some((f) => f.key === key && f.secret));
}

/** A value as the server masks it (so not one to send back). */
export function isMasked(value: string): boolean {
  return value.startsWith(SECRET_MASK);
}

/** The integration fields to show: only the keys the server returned, in their groups (a group with none goes). */
export function integrationGroups(settings: ReadonlyArray<SettingDto> | undefined): IntegrationGroup[] {
  if (!settings) return [];
  return INTEGRATION_GROUPS.flatMap(({ id, fields }) => {
    const shown = fields.flatMap(({ key, secret }) => {
      const value = settingValue(settings, key);
      return value === undefined ? [] : [{ key, value, secret }];
    });
    return shown.length > 0 ? [{ id, fields: shown }] : [];
  });
}
