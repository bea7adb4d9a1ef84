import { Module } from '@nestjs/common';
import { AutomationModule } from '../automation/automation.module.js';
import { CampaignsModule } from '../campaigns/campaigns.module.js';
import { ConversationModule } from '../conversation/conversation.module.js';
import { WaAckConsumer } from './consumers/wa-ack.consumer.js';
import { WaInboundConsumer } from './consumers/wa-inbound.consumer.js';
import { GroupMessages } from './group-messages.js';

/**
 * WhatsApp into tickets: customers' messages stored in batches (then handed to automation; group messages dropped
 * first when the company ignores them), and acks.
 */
@Module({
  imports: [ConversationModule, AutomationModule, CampaignsModule],
  providers: [WaInboundConsumer, WaAckConsumer, GroupMessages],
})
export class InboundModule {}
