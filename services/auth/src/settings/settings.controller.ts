import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ApiProperty, ApiTags } from '@nestjs/swagger';
import { AdminOnly, CurrentUser } from '@wa/auth';
import { Subjects, type AccessTokenClaims, type SettingDto, type SettingUpdatedEvent } from '@wa/contracts';
import { EventBus } from '@wa/event-bus';
import { DomainError } from '@wa/server-kit';
import { IsString, MaxLength } from 'class-validator';
import { DataSource } from 'typeorm';
import { SettingEntity } from '../database/entities/setting.entity.js';

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
    private readonly bus: EventBus,
  ) {}

  @Get()
  async list(@CurrentUser() caller: AccessTokenClaims): Promise<SettingDto[]> {
    const rows = await this.db.getRepository(SettingEntity).find({ where: { companyId: caller.companyId }, order: { key: 'ASC' } });
    return rows.map((s) => ({ key: s.key, value: s.value }));
  }

  @AdminOnly()
  @Put(':key')
  async update(@CurrentUser() caller: AccessTokenClaims, @Param('key') key: string, @Body() body: UpdateSettingDto): Promise<SettingDto> {
    const repo = this.db.getRepository(SettingEntity);
    const result = await repo.update({ companyId: caller.companyId, key }, { value: body.value });
    if (!result.affected) throw new DomainError('ERR_NO_SETTING_FOUND');
    const event: SettingUpdatedEvent = { companyId: caller.companyId, key, value: body.value, at: new Date().toISOString() };
    await this.bus.publish(Subjects.settingUpdated(caller.companyId, key), event, { msgId: `setting:${caller.companyId}:${key}:${Date.now()}` });
    return { key, value: body.value };
  }
}
