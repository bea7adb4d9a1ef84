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
    return rows.map((s) => ({ key: s.key, value: this.secrets.shown(s.key, s.value) }));
  }

  @AdminOnly()
  @Put(':key')
  async update(@CurrentUser() caller: AccessTokenClaims, @Param('key') key: string, @Body() body: UpdateSettingDto): Promise<SettingDto> {
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
}
