import type {
  ChatDto,
  ChatMessageDto,
  ContactDto,
  FileListDto,
  MessageDto,
  QueueDto,
  ScheduleDto,
  TicketDto,
} from '../tickets/tickets.types.js';

/** What tickets publishes after commit (TICKETS stream); realtime-gateway fans it out. */
export const TicketSubjects = {
  ticketUpdated: (companyId: number, ticketId: number) => `ticket.updated.${companyId}.${ticketId}`,
  ticketDeleted: (companyId: number, ticketId: number) => `ticket.deleted.${companyId}.${ticketId}`,
  ticketUnread: (companyId: number, ticketId: number) => `ticket.unread.${companyId}.${ticketId}`,
  messageCreated: (companyId: number, ticketId: number) => `message.created.${companyId}.${ticketId}`,
  messageUpdated: (companyId: number, ticketId: number) => `message.updated.${companyId}.${ticketId}`,
  /**
   * Many `message.created` / `message.updated` of one company in one event (MessageBatchEvent), named by its first
   * message: what one inbound batch stored is announced so, one stream message and one delivery for the lot, and
   * so are the messages one transaction of tickets writes (the bot's replies to a batch, an agent's several sends).
   */
  messageBatch: (companyId: number, firstMessageId: number) => `message.batch.${companyId}.${firstMessageId}`,
  contactUpdated: (companyId: number, contactId: number) => `contact.updated.${companyId}.${contactId}`,
  contactDeleted: (companyId: number, contactId: number) => `contact.deleted.${companyId}.${contactId}`,
  queueUpdated: (companyId: number, queueId: number) => `queue.updated.${companyId}.${queueId}`,
  queueDeleted: (companyId: number, queueId: number) => `queue.deleted.${companyId}.${queueId}`,
  /** a prompt made or changed (no secret in it): whatsapp-sessions keeps which prompts are whose */
  promptUpdated: (companyId: number, promptId: number) => `prompt.updated.${companyId}.${promptId}`,
  promptDeleted: (companyId: number, promptId: number) => `prompt.deleted.${companyId}.${promptId}`,
  scheduleUpdated: (companyId: number, scheduleId: number) => `schedule.updated.${companyId}.${scheduleId}`,
  scheduleDeleted: (companyId: number, scheduleId: number) => `schedule.deleted.${companyId}.${scheduleId}`,
  chatUpdated: (companyId: number, chatId: number) => `chat.updated.${companyId}.${chatId}`,
  chatMessage: (companyId: number, chatId: number) => `chat.message.${companyId}.${chatId}`,
  chatDeleted: (companyId: number, chatId: number) => `chat.deleted.${companyId}.${chatId}`,
  fileListUpdated: (companyId: number, fileListId: number) => `files.updated.${companyId}.${fileListId}`,
  fileListDeleted: (companyId: number, fileListId: number) => `files.deleted.${companyId}.${fileListId}`,
} as const;

/** `files.updated` / `files.deleted`: a file list changed, to the company's sockets (`company-{id}-files`). */
export type FileListEvent =
  { companyId: number; action: 'update'; fileList: FileListDto } | { companyId: number; action: 'delete'; fileListId: number };

/** `chat.updated` (made, renamed, members changed, read) and `chat.deleted`: to the members' sockets (and former members'). */
export interface ChatChangedEvent {
  companyId: number;
  chat: ChatDto;
  /** members who were taken out (their lists drop the chat) */
  removedUserIds?: number[];
}

export interface ChatDeletedEvent {
  companyId: number;
  chatId: number;
  userIds: number[];
}

/** `chat.message`: a new message, with the chat as it now is (last message, unreads). */
export interface ChatMessageEvent {
  companyId: number;
  chat: ChatDto;
  message: ChatMessageDto;
}

/** `schedule.updated`: a scheduled message was created, changed, sent or failed. */
export interface ScheduleUpdatedEvent {
  companyId: number;
  schedule: ScheduleDto;
}

export interface ScheduleDeletedEvent {
  companyId: number;
  scheduleId: number;
  userId: number;
}

export interface TicketUpdatedEvent {
  companyId: number;
  ticket: TicketDto;
}

export interface TicketDeletedEvent {
  companyId: number;
  ticketId: number;
  queueId: number | null;
  userId: number | null;
}

export interface TicketUnreadEvent {
  companyId: number;
  ticketId: number;
  queueId: number | null;
  userId: number | null;
}

export interface MessageEvent {
  companyId: number;
  message: MessageDto;
  ticket: TicketDto;
  contact: Pick<ContactDto, 'id' | 'name' | 'number' | 'profilePicUrl'>;
}

/**
 * `message.batch`: the `message.created` / `message.updated` events of one company, each as it would have been
 * published alone (its verb beside it), in their order. Its readers handle each one as that event.
 */
export interface MessageBatchEvent {
  companyId: number;
  events: Array<MessageEvent & { verb: 'created' | 'updated' }>;
}

export interface ContactUpdatedEvent {
  companyId: number;
  contact: ContactDto;
}

export interface ContactDeletedEvent {
  companyId: number;
  contactId: number;
}

export interface QueueChangedEvent {
  companyId: number;
  queue: QueueDto;
}

/** `prompt.updated` / `prompt.deleted`: which company a prompt id belongs to (never its key or text). */
export interface PromptRefEvent {
  companyId: number;
  promptId: number;
}

export interface QueueDeletedEvent {
  companyId: number;
  queueId: number;
}
