import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Subjects, type AccessTokenClaims, type SettingDto, type SettingUpdatedEvent } from '@wa/contracts';
import { DomainError } from '@wa/server-kit';
import { isTimeZone, TIME_ZONE_SETTING } from '@wa/domain';
import { DataSource } from 'typeorm';
import { Outbox } from '../outbox/outbox.service.js';
import { isPlatformSetting, PLATFORM_SETTINGS } from './platform-settings.js';
import { SettingSecrets } from './setting-secrets.js';
import { SettingsRepository } from './settings.repository.js';

/**
 * A company's settings (spec 02 settings), read by its users and changed by its admins; secrets shown masked.
 * Super users also see and change the platform's settings (kept on the provider's company).
 */
@Injectable()
export class SettingsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly settings: SettingsRepository,
    private readonly outbox: Outbox,
    private readonly secrets: SettingSecrets,
  ) {}

  async list(caller: AccessTokenClaims): Promise<SettingDto[]> {
    const rows = await this.settings.ofCompany(caller.companyId);
    const own = rows.filter((s) => !isPlatformSetting(s.key)).map((s) => ({ key: s.key, value: this.secrets.shown(s.key, s.value) }));
    if (!caller.super) return own;
    // super users see the platform's settings, wherever their own company is
    return [...own, ...(await this.platformSettings())].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async update(caller: AccessTokenClaims, key: string, value: string): Promise<SettingDto> {
    if (isPlatformSetting(key)) return this.updatePlatform(caller, key, value);
    // the company's calendar: an IANA zone (America/Sao_Paulo, America/Manaus, Europe/Lisbon…)
    if (key === TIME_ZONE_SETTING && !isTimeZone(value)) throw new DomainError('ERR_INVALID_TIMEZONE', { value });
    // a secret sent back as it was shown is no new value: it stays as it is
    if (this.secrets.isShownForm(key, value)) {
      const current = await this.settings.find(caller.companyId, key);
      if (!current) throw new DomainError('ERR_NO_SETTING_FOUND');
      return { key, value: this.secrets.shown(key, current.value) };
    }
    const stored = this.secrets.stored(key, value);
    const shown = this.secrets.shown(key, stored);
    const outboxIds = await this.db.transaction(async (tx) => {
      if (!(await this.settings.update(tx, caller.companyId, key, stored))) throw new DomainError('ERR_NO_SETTING_FOUND');
      // events carry what readers may see: a secret only masked
      const event: SettingUpdatedEvent = { companyId: caller.companyId, key, value: shown, at: new Date().toISOString() };
      return this.outbox.add(tx, [
        {
          subject: Subjects.settingUpdated(caller.companyId, key),
          msgId: `setting:${caller.companyId}:${key}:${Date.now()}`,
          payload: event,
        },
      ]);
    });
    await this.outbox.flush(outboxIds);
    return { key, value: shown };
  }

  /** The platform's settings (the provider's company's), each at its initial value until set. */
  private async platformSettings(): Promise<SettingDto[]> {
    const companyId = await this.settings.providerCompanyId();
    const rows = companyId === undefined ? [] : await this.settings.ofCompany(companyId);
    return Object.entries(PLATFORM_SETTINGS).map(([key, { initial }]) => ({
      key,
      value: rows.find((r) => r.key === key)?.value ?? initial,
    }));
  }

  /**
   * A platform setting (sign-up open or closed): super users only, one of its values, stored on the provider's
   * company (created when missing: `PUT /settings/:key` otherwise changes only rows that exist).
   */
  private async updatePlatform(caller: AccessTokenClaims, key: string, value: string): Promise<SettingDto> {
    if (!caller.super) throw new DomainError('ERR_NO_PERMISSION');
    const allowed = PLATFORM_SETTINGS[key]?.allowed ?? [];
    if (!allowed.includes(value)) {
      throw new DomainError(
        'ERR_VALIDATION',
        { details: [{ field: 'value', messages: [`must be one of ${allowed.join(', ')}`] }] },
        `value must be one of ${allowed.join(', ')}`,
      );
    }
    const companyId = (await this.settings.providerCompanyId()) ?? caller.companyId;
    const outboxIds = await this.db.transaction(async (tx) => {
      await this.settings.upsert(tx, companyId, key, value);
      const event: SettingUpdatedEvent = { companyId, key, value, at: new Date().toISOString() };
      return this.outbox.add(tx, [
        { subject: Subjects.settingUpdated(companyId, key), msgId: `setting:${companyId}:${key}:${Date.now()}`, payload: event },
      ]);
    });
    await this.outbox.flush(outboxIds);
    return { key, value };
  }
}
