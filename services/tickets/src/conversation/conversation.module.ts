import { Module } from '@nestjs/common';
import { ContactsTransfer } from './contacts/contacts-transfer.service.js';
import { ContactsController } from './contacts/contacts.controller.js';
import { ContactsService } from './contacts/contacts.service.js';
import { PhoneContacts } from './contacts/phone-contacts.service.js';
import { WhatsappCheck } from './contacts/whatsapp-check.service.js';
import { TicketsRepository } from './core/tickets.repository.js';
import { MediaController } from './media/media.controller.js';
import { MessageChanges } from './messages/message-changes.service.js';
import { MessagesController } from './messages/messages.controller.js';
import { MessagesService } from './messages/messages.service.js';
import { NotesController } from './notes/notes.controller.js';
import { NotesService } from './notes/notes.service.js';
import { DefaultQueueConsumer } from './queues/default-queue.consumer.js';
import { QueuesController } from './queues/queues.controller.js';
import { QueuesService } from './queues/queues.service.js';
import { QuickMessagesController } from './quick-messages/quick-messages.controller.js';
import { QuickMessagesService } from './quick-messages/quick-messages.service.js';
import { ConversationSender } from './sending/conversation-sender.js';
import { TagsController, TicketTagsController } from './tags/tags.controller.js';
import { TagsService } from './tags/tags.service.js';
import { KanbanController, TicketsController } from './tickets/tickets.controller.js';
import { TicketsService } from './tickets/tickets.service.js';
import { ChangeTicket } from './tickets/use-cases/change-ticket.js';

import { PresenceController } from './presence/presence.controller.js';
import { ChatPresences } from './presence/presence.js';
/**
 * A conversation with a customer: its tickets, messages, contacts, notes, tags, queues, quick messages and
 * stored files. Others reach it through two doors: ConversationSender (the one engine that stores and
 * publishes our messages into a conversation) and TicketsRepository (reads of tickets, keyed by company).
 */
@Module({
  controllers: [
    TicketsController,
    KanbanController,
    MessagesController,
    ContactsController,
    NotesController,
    TagsController,
    TicketTagsController,
    QueuesController,
    QuickMessagesController,
    MediaController,
    PresenceController,
  ],
  providers: [
    TicketsRepository,
    ConversationSender,
    TicketsService,
    ChangeTicket,
    MessagesService,
    MessageChanges,
    ContactsService,
    ContactsTransfer,
    WhatsappCheck,
    PhoneContacts,
    NotesService,
    TagsService,
    QueuesService,
    DefaultQueueConsumer,
    QuickMessagesService,
    ChatPresences,
  ],
  exports: [ConversationSender, TicketsRepository],
})
export class ConversationModule {}
