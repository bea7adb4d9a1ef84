import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import { AdminOnly, CurrentUser } from '@wa/auth';
import type { AccessTokenClaims, CampaignSettingDto } from '@wa/contracts';
import { CampaignSettingsBodyDto } from './campaign-settings.dto.js';
import { CampaignSettingsService } from './campaign-settings.service.js';

/** Any user of the company reads them (the campaign dialog's variables hint); an admin changes them. */
@ApiTags('campaign-settings')
@Controller('campaign-settings')
export class CampaignSettingsController {
  constructor(private readonly settings: CampaignSettingsService) {}

  @Get()
  @ApiResponse({ status: 200, description: "the company's campaign settings: [{ key, value }]" })
  list(@CurrentUser() caller: AccessTokenClaims): Promise<CampaignSettingDto[]> {
    return this.settings.list(caller.companyId);
  }

  @AdminOnly()
  @Post()
  @HttpCode(200)
  @ApiResponse({ status: 200, description: 'the settings as they are now: [{ key, value }]' })
  @ApiResponse({ status: 403, description: 'ERR_NO_PERMISSION: admins only' })
  save(@CurrentUser() caller: AccessTokenClaims, @Body() body: CampaignSettingsBodyDto): Promise<CampaignSettingDto[]> {
    return this.settings.save(caller.companyId, body.settings);
  }
}
