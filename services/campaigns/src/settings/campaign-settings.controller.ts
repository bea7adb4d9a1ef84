import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
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
  list(@CurrentUser() caller: AccessTokenClaims): Promise<CampaignSettingDto[]> {
    return this.settings.list(caller.companyId);
  }

  @AdminOnly()
  @Post()
  @HttpCode(200)
  save(@CurrentUser() caller: AccessTokenClaims, @Body() body: CampaignSettingsBodyDto): Promise<CampaignSettingDto[]> {
    return this.settings.save(caller.companyId, body.settings);
  }
}
