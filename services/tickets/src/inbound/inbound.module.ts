import { Module } from '@nestjs/common';
import { AutomationModule } from '../automation/automation.module.js';
import { CampaignsModule } from '../campaigns/campaigns.module.js';
import { ConversationModule } from '../conversation/conversation.module.js';
import { WaAckConsumer } from './consumers/wa-ack.consumer.js';
import { WaInboundConsumer } from './consumers/wa-inbound.consumer.js';

/** WhatsApp into tickets: customers' messages stored in batches (then handed to automation), and acks. */
@Module({
  imports: [ConversationModule, AutomationModule, CampaignsModule],
  providers: [WaInboundConsumer, WaAckConsumer],
})
export class InboundModule {}
