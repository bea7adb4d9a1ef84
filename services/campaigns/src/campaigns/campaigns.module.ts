import { Module } from '@nestjs/common';
import { DispatchModule } from '../dispatch/dispatch.module.js';
import { RecordsModule } from '../records/records.module.js';
import { CampaignsController } from './campaigns.controller.js';
import { CampaignsRepository } from './campaigns.repository.js';
import { CampaignsService } from './campaigns.service.js';
import { CampaignSettingsModule } from '../settings/campaign-settings.module.js';

/** /campaigns (the CRUD, the attachment, the report and its CSV, stop and restart) and /campaign-settings. */
@Module({
  imports: [RecordsModule, DispatchModule, CampaignSettingsModule],
  controllers: [CampaignsController],
  providers: [CampaignsRepository, CampaignsService],
})
export class CampaignsModule {}
