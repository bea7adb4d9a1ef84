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
  ) {}

  @Get()
  async list(@CurrentUser() caller: AccessTokenClaims): Promise<SettingDto[]> {
    const rows = await this.db.getRepository(SettingEntity).find({ where: { companyId: caller.companyId }, order: { key: 'ASC' } });
    return rows.map((s) => ({ key: s.key, value: s.value }));
  }

  @AdminOnly()
  @Put(':key')
  async update(@CurrentUser() caller: AccessTokenClaims, @Param('key') key: string, @Body() body: UpdateSettingDto): Promise<SettingDto> {
    // the company's calendar: an IANA zone (America/Sao_Paulo, America/Manaus, Europe/Lisbon…)
    if (key === TIME_ZONE_SETTING && !isTimeZone(body.value)) throw new DomainError('ERR_INVALID_TIMEZONE', { value: body.value });
    const outboxIds = await this.db.transaction(async (tx) => {
      const result = await tx.getRepository(SettingEntity).update({ companyId: caller.companyId, key }, { value: body.value });
      if (!result.affected) throw new DomainError('ERR_NO_SETTING_FOUND');
      const event: SettingUpdatedEvent = { companyId: caller.companyId, key, value: body.value, at: new Date().toISOString() };
      return this.outbox.add(tx, [{ subject: Subjects.settingUpdated(caller.companyId, key), msgId: `setting:${caller.companyId}:${key}:${Date.now()}`, payload: event }]);
    });
    await this.outbox.flush(outboxIds);
    return { key, value: body.value };
  }
}
