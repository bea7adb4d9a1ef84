import { Module } from '@nestjs/common';
import { ConversationModule } from '../conversation/conversation.module.js';
import { ContactLids } from '../inbound/contact-lids.js';
import { WaCallsConsumer } from './wa-calls.consumer.js';

/**
 * Customers' WhatsApp calls and the company's `call` setting: rejected, with the company's message and a missed-call
 * line in the conversation, while it is disabled.
 */
@Module({
  imports: [ConversationModule],
  // ContactLids: a bare-LID caller whose contact is known is that contact (stateless; merges are serialised in PostgreSQL)
  providers: [WaCallsConsumer, ContactLids],
})
export class CallsModule {}
