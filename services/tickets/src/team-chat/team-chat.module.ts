import { Module } from '@nestjs/common';
import { ChatsController, ChatsService } from './chats.js';

/** The company's internal chats between users (spec 01 "Internal chat"); depends on identity and the outbox only. */
@Module({
  controllers: [ChatsController],
  providers: [ChatsService],
})
export class TeamChatModule {}
