import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiProperty, ApiTags } from '@nestjs/swagger';
import { AdminOnly, CurrentUser } from '@wa/auth';
import type { AccessTokenClaims, RequestDto, SettingDto, UpdateSettingRequest } from '@wa/contracts';
import { IsString, MaxLength } from 'class-validator';
import { SettingsService } from './settings.service.js';

export class UpdateSettingDto implements RequestDto<UpdateSettingDto, UpdateSettingRequest> {
  @ApiProperty()
  @IsString()
  @MaxLength(2000)
  value: string;
}

@ApiTags('settings')
@Controller('settings')
export class SettingsController {
  constructor(private readonly settings: SettingsService) {}

  @Get()
  list(@CurrentUser() caller: AccessTokenClaims): Promise<SettingDto[]> {
    return this.settings.list(caller);
  }

  @AdminOnly()
  @Put(':key')
  update(@CurrentUser() caller: AccessTokenClaims, @Param('key') key: string, @Body() body: UpdateSettingDto): Promise<SettingDto> {
    return this.settings.update(caller, key, body.value);
  }
}
