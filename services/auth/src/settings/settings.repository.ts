import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, type EntityManager } from 'typeorm';
import { SettingEntity } from '../database/entities/setting.entity.js';
import { PLATFORM_SETTINGS } from './platform-settings.js';

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

/**
 * The companies' settings (`auth.settings`, one row per company and key). Every method names its company: the
 * platform's settings live on the provider's company, whoever asks.
 */
@Injectable()
export class SettingsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  providerCompanyId(): Promise<number | undefined> {
    return providerCompanyId(this.db);
  }

  /** A company's settings, by key. */
  ofCompany(companyId: number, manager: EntityManager = this.db.manager): Promise<SettingEntity[]> {
    return manager.getRepository(SettingEntity).find({ where: { companyId }, order: { key: 'ASC' } });
  }

  /** The settings of several companies, by key. */
  ofCompanies(manager: EntityManager, ids: number[]): Promise<SettingEntity[]> {
    return manager.getRepository(SettingEntity).find({ where: { companyId: In(ids) }, order: { key: 'ASC' } });
  }

  find(companyId: number, key: string, manager: EntityManager = this.db.manager): Promise<SettingEntity | null> {
    return manager.getRepository(SettingEntity).findOneBy({ companyId, key });
  }

  async valueOf(companyId: number, key: string): Promise<string | undefined> {
    const rows: Array<{ value: string }> = await this.db.query(`SELECT value FROM auth.settings WHERE "companyId" = $1 AND key = $2`, [
      companyId,
      key,
    ]);
    return rows[0]?.value;
  }

  /** The settings of these keys, of every company (the secrets' sealing at start). */
  ofKeys(keys: Iterable<string>): Promise<SettingEntity[]> {
    return this.db.getRepository(SettingEntity).find({ where: { key: In([...keys]) } });
  }

  /** Writes a setting's value by its row id. */
  async setValue(id: number, value: string): Promise<void> {
    await this.db.getRepository(SettingEntity).update({ id }, { value });
  }

  /** Sets a setting the company has; answers false when it has none of that key. */
  async update(tx: EntityManager, companyId: number, key: string, value: string): Promise<boolean> {
    const result = await tx.getRepository(SettingEntity).update({ companyId, key }, { value });
    return !!result.affected;
  }

  /** Sets a setting, creating it when the company has none of that key. */
  async upsert(tx: EntityManager, companyId: number, key: string, value: string): Promise<void> {
    await tx.query(
      `INSERT INTO auth.settings ("companyId", key, value) VALUES ($1, $2, $3)
       ON CONFLICT ("companyId", key) DO UPDATE SET value = EXCLUDED.value, "updatedAt" = now()`,
      [companyId, key, value],
    );
  }
}
