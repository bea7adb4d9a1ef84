import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ApiProperty, ApiTags } from '@nestjs/swagger';
import { AdminOnly, CurrentUser } from '@wa/auth';
import { Subjects, type AccessTokenClaims, type SettingDto, type SettingUpdatedEvent } from '@wa/contracts';
import { DomainError, isTimeZone, TIME_ZONE_SETTING } from '@wa/server-kit';
import { IsString, MaxLength } from 'class-validator';
import { DataSource } from 'typeorm';
import { SettingEntity } from '../database/entities/setting.entity.js';
import { Outbox } from '../outbox/outbox.service.js';
import { isPlatformSetting, PLATFORM_SETTINGS, providerCompanyId } from './platform-settings.js';
import { SettingSecrets } from './setting-secrets.js';

export class UpdateSettingDto {
  @ApiProperty()
  @IsString()
  @MaxLength(2000)
  value: string;
}

@ApiTags('settings')
@Controller('settings')
export class SettingsController {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly outbox: Outbox,
    private readonly secrets: SettingSecrets,
  ) {}

  @Get()
  async list(@CurrentUser() caller: AccessTokenClaims): Promise<SettingDto[]> {
    const rows = await this.db.getRepository(SettingEntity).find({ where: { companyId: caller.companyId }, order: { key: 'ASC' } });
    const own = rows.filter((s) => !isPlatformSetting(s.key)).map((s) => ({ key: s.key, value: this.secrets.shown(s.key, s.value) }));
    if (!caller.super) return own;
    // super users see the platform's settings, wherever their own company is
    return [...own, ...(await this.platformSettings())].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  @AdminOnly()
  @Put(':key')
  async update(@CurrentUser() caller: AccessTokenClaims, @Param('key') key: string, @Body() body: UpdateSettingDto): Promise<SettingDto> {
    if (isPlatformSetting(key)) return this.updatePlatform(caller, key, body.value);
    // the company's calendar: an IANA zone (America/Sao_Paulo, America/Manaus, Europe/Lisbon…)
    if (key === TIME_ZONE_SETTING && !isTimeZone(body.value)) throw new DomainError('ERR_INVALID_TIMEZONE', { value: body.value });
    const repo = this.db.getRepository(SettingEntity);
    // a secret sent back as it was shown is no new value: it stays as it is
    if (this.secrets.isShownForm(key, body.value)) {
      const current = await repo.findOneBy({ companyId: caller.companyId, key });
      if (!current) throw new DomainError('ERR_NO_SETTING_FOUND');
      return { key, value: this.secrets.shown(key, current.value) };
    }
    const stored = this.secrets.stored(key, body.value);
    const shown = this.secrets.shown(key, stored);
    const outboxIds = await this.db.transaction(async (tx) => {
      const result = await tx.getRepository(SettingEntity).update({ companyId: caller.companyId, key }, { value: stored });
      if (!result.affected) throw new DomainError('ERR_NO_SETTING_FOUND');
      // events carry what readers may see: a secret only masked
      const event: SettingUpdatedEvent = { companyId: caller.companyId, key, value: shown, at: new Date().toISOString() };
      return this.outbox.add(tx, [{ subject: Subjects.settingUpdated(caller.companyId, key), msgId: `setting:${caller.companyId}:${key}:${Date.now()}`, payload: event }]);
    });
    await this.outbox.flush(outboxIds);
    return { key, value: shown };
  }

  /** The platform's settings (the provider's company's), each at its initial value until set. */
  private async platformSettings(): Promise<SettingDto[]> {
    const companyId = await providerCompanyId(this.db);
    const rows = companyId === undefined ? [] : await this.db.getRepository(SettingEntity).find({ where: { companyId } });
    return Object.entries(PLATFORM_SETTINGS).map(([key, { initial }]) => ({ key, value: rows.find((r) => r.key === key)?.value ?? initial }));
  }

  /**
   * A platform setting (sign-up open or closed): super users only, one of its values, stored on the provider's
   * company (created when missing: `PUT /settings/:key` otherwise changes only rows that exist).
   */
  private async updatePlatform(caller: AccessTokenClaims, key: string, value: string): Promise<SettingDto> {
    if (!caller.super) throw new DomainError('ERR_NO_PERMISSION');
    const allowed = PLATFORM_SETTINGS[key]?.allowed ?? [];
    if (!allowed.includes(value)) {
      throw new DomainError('ERR_VALIDATION', { details: [{ field: 'value', messages: [`must be one of ${allowed.join(', ')}`] }] }, `value must be one of ${allowed.join(', ')}`);
    }
    const companyId = (await providerCompanyId(this.db)) ?? caller.companyId;
    const outboxIds = await this.db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO auth.settings ("companyId", key, value) VALUES ($1, $2, $3)
         ON CONFLICT ("companyId", key) DO UPDATE SET value = EXCLUDED.value, "updatedAt" = now()`,
        [companyId, key, value],
      );
      const event: SettingUpdatedEvent = { companyId, key, value, at: new Date().toISOString() };
      return this.outbox.add(tx, [{ subject: Subjects.settingUpdated(companyId, key), msgId: `setting:${companyId}:${key}:${Date.now()}`, payload: event }]);
    });
    await this.outbox.flush(outboxIds);
    return { key, value };
  }
}
