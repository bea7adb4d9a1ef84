import { Module } from '@nestjs/common';
import { CampaignSettingsController } from './campaign-settings.controller.js';
import { CampaignSettingsRepository } from './campaign-settings.repository.js';
import { CampaignSettingsReader, CampaignSettingsService } from './campaign-settings.service.js';

/** GET/POST /campaign-settings, and CampaignSettingsReader for the dispatcher (intervals and variables). */
@Module({
  controllers: [CampaignSettingsController],
  providers: [CampaignSettingsRepository, CampaignSettingsReader, CampaignSettingsService],
  exports: [CampaignSettingsReader],
})
export class CampaignSettingsModule {}
