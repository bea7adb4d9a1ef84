import { Module } from '@nestjs/common';
import { CampaignAudience, CampaignAudienceController } from './campaign-audience.js';
import { CampaignReplies } from './campaign-replies.js';
import { CampaignSentConsumer } from './campaign-sent.consumer.js';

/**
 * tickets' side of campaigns (spec 02 §4): what campaigns asks of tickets (a tag's contacts, a file list's files:
 * internal routes), and the campaign message a contact answers, shown in the new ticket (CampaignReplies, used by
 * inbound). Depends on the platform only.
 */
@Module({
  controllers: [CampaignAudienceController],
  providers: [CampaignAudience, CampaignSentConsumer, CampaignReplies],
  exports: [CampaignReplies],
})
export class CampaignsModule {}
