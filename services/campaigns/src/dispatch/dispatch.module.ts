import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { CampaignSettingsModule } from '../settings/campaign-settings.module.js';
import { RecordsModule } from '../records/records.module.js';
import { AcksConsumer } from './acks.consumer.js';
import { AnswersConsumer } from './answers.consumer.js';
import { CAMPAIGN_START_QUEUE, CampaignLifecycle, CampaignStartJob } from './campaign-lifecycle.js';
import { CampaignGuards } from './guards.js';
import { Pacers } from './pacer.js';
import { Progress } from './progress.js';
import { ShippingsRepository } from './shippings.repository.js';

/** Sending campaigns: the start (freezing the audience), the leased pacer per connection, acks, confirmations, opt-outs. */
@Module({
  imports: [RecordsModule, CampaignSettingsModule, BullModule.registerQueue({ name: CAMPAIGN_START_QUEUE })],
  providers: [ShippingsRepository, Progress, Pacers, CampaignLifecycle, CampaignStartJob, AcksConsumer, AnswersConsumer, CampaignGuards],
  exports: [CampaignLifecycle, Pacers, CampaignGuards],
})
export class DispatchModule {}
