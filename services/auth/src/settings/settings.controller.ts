import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiProperty, ApiResponse, ApiTags } from '@nestjs/swagger';
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
  @ApiResponse({ status: 200, description: "the company's settings: [{ key, value }]" })
  list(@CurrentUser() caller: AccessTokenClaims): Promise<SettingDto[]> {
    return this.settings.list(caller);
  }

  @AdminOnly()
  @Put(':key')
  @ApiResponse({ status: 200, description: 'the setting as it is now: { key, value }' })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only (platform settings such as userCreation: super users only)' })
  @ApiResponse({ status: 404, description: 'ERR_NO_SETTING_FOUND' })
  update(@CurrentUser() caller: AccessTokenClaims, @Param('key') key: string, @Body() body: UpdateSettingDto): Promise<SettingDto> {
    return this.settings.update(caller, key, body.value);
  }
}
