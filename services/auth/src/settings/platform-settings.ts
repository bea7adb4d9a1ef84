import type { EntityManager } from 'typeorm';

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

interface Queryable {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/** The provider's company: the first super user's (undefined before there is one). */
export async function providerCompanyId(db: Queryable): Promise<number | undefined> {
  const rows = (await db.query(`SELECT "companyId" FROM auth.users WHERE super ORDER BY id LIMIT 1`)) as Array<{ companyId: number }>;
  return rows[0]?.companyId;
}

/** The platform settings on the provider's company, at their initial values where missing (the seeds call it). */
export async function ensurePlatformSettings(tx: EntityManager, companyId: number): Promise<void> {
  const keys = Object.keys(PLATFORM_SETTINGS);
  await tx.query(
    `INSERT INTO auth.settings ("companyId", key, value) SELECT $1, k, v FROM unnest($2::varchar[], $3::text[]) AS t(k, v)
     ON CONFLICT ("companyId", key) DO NOTHING`,
    [companyId, keys, Object.values(PLATFORM_SETTINGS).map((s) => s.initial)],
  );
}
