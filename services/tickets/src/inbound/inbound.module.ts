import { Module } from '@nestjs/common';
import { AutomationModule } from '../automation/automation.module.js';
import { CampaignsModule } from '../campaigns/campaigns.module.js';
import { ConversationModule } from '../conversation/conversation.module.js';
import { ContactPicturesModule } from '../conversation/contacts/pictures/contact-pictures.module.js';
import { WaAckConsumer } from './consumers/wa-ack.consumer.js';
import { WaInboundConsumer } from './consumers/wa-inbound.consumer.js';
import { WaLidsConsumer } from './consumers/wa-lids.consumer.js';
import { ContactLids } from './contact-lids.js';
import { GroupMessages } from './group-messages.js';
import { InboundHistory } from './history.js';
import { InboundResends } from './resends.js';
import { SearchIndexMerge } from './search-index-merge.js';
import { InboundReactions } from './store-inbound-reactions.js';

/**
 * WhatsApp into tickets: customers' messages stored in batches (then handed to automation; group messages dropped
 * first when the company ignores them), acks, and LIDs (a customer's LID and number made one contact).
 */
@Module({
  imports: [ConversationModule, AutomationModule, CampaignsModule, ContactPicturesModule],
  providers: [
    WaInboundConsumer,
    WaAckConsumer,
    WaLidsConsumer,
    GroupMessages,
    ContactLids,
    InboundResends,
    InboundHistory,
    InboundReactions,
    SearchIndexMerge,
  ],
})
export class InboundModule {}
