import { Module } from '@nestjs/common';
import { ConversationModule } from '../conversation/conversation.module.js';
import { ApiMessagesController } from './api-messages.controller.js';
import { ApiMessagesService } from './api-messages.service.js';

/** The public messages API (`/api/messages`): integrators' sends go into conversations through ConversationSender. */
@Module({
  imports: [ConversationModule],
  controllers: [ApiMessagesController],
  providers: [ApiMessagesService],
})
export class PublicApiModule {}
