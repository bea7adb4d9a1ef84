export type TicketStatus = 'pending' | 'open' | 'closed';

export interface ContactDto {
  id: number;
  companyId: number;
  name: string;
  number: string;
  email: string;
  profilePicUrl: string;
  isGroup: boolean;
  extraInfo: Array<{ name: string; value: string }>;
  /** checked on WhatsApp through a connection: true, false (not on WhatsApp) or null (not checked yet) */
  isWhatsappValid: boolean | null;
  /**
   * WhatsApp's linked identity (LID, digits) the contact is known by: a customer WhatsApp names only by a LID has
   * `number` '' until WhatsApp tells which number it stands for (then the two contacts become one)
   */
  lid?: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface TagDto {
  id: number;
  name: string;
  color: string;
  /** 1: a lane of the kanban board */
  kanban: number;
  userId: number | null;
  companyId: number;
  ticketsCount?: number;
}

export interface TagsPage {
  tags: TagDto[];
  hasMore: boolean;
}

/** `GET /contacts` */
export interface ContactsPage {
  contacts: ContactDto[];
  hasMore: boolean;
  count: number;
}

/**
 * `POST /contacts`: the contact; when the number was already a contact's, that one, flagged
 * `alreadyExists` (and repeated as `existingContact`); `invalido` when WhatsApp says the number is not on it.
 */
export type ContactCreated = ContactDto & { alreadyExists?: boolean; existingContact?: ContactDto; invalido?: boolean };

/** `POST /contacts/upload` and `POST /contacts/import`: what happened to each row. */
export interface ContactsImportReport {
  created: number;
  updated: number;
  failed: Array<{ row: number; number: string; error: string }>;
}

export interface QueueDto {
  id: number;
  companyId: number;
  name: string;
  color: string;
  greetingMessage: string;
  outOfHoursMessage: string;
  orderQueue: number | null;
  /** its file's address (GET /media/…), sent with the greeting; null without one */
  mediaPath: string | null;
  mediaName: string | null;
  /** working hours, one entry per open day (used when the company's scheduleType is queue) */
  schedules: QueueScheduleDto[];
  /** the AI prompt answering its customers; null without one */
  promptId?: number | null;
  /** the outside flow answering its customers; null without one */
  integrationId?: number | null;
  createdAt: string;
  updatedAt: string;
}

/** spec 02 "Prompt" (GET /prompt, /prompt/{id}): the API key only masked, never whole. */
export interface PromptDto {
  id: number;
  name: string;
  prompt: string;
  voice: string;
  voiceKey: string | null;
  voiceRegion: string | null;
  maxTokens: number;
  temperature: number;
  /** masked: its last four characters ('' without one) */
  apiKey: string;
  queueId: number;
  queue: { id: number; name: string } | null;
  maxMessages: number;
  createdAt: string;
  updatedAt: string;
}

/** spec 02 "Queue integration" (GET /queueIntegration, /queueIntegration/{id}); Dialogflow's JSON only masked. */
export interface QueueIntegrationDto {
  id: number;
  type: 'dialogflow' | 'n8n' | 'webhook' | 'typebot';
  name: string;
  projectName: string;
  /** masked: '' without credentials */
  jsonContent: string;
  language: string;
  urlN8N: string;
  typebotSlug: string;
  typebotExpires: number;
  typebotKeywordFinish: string;
  typebotKeywordRestart: string;
  typebotUnknownMessage: string;
  typebotRestartMessage: string;
  typebotDelayMessage: number;
  createdAt: string;
  updatedAt: string;
}

export interface QueueIntegrationsPage {
  queueIntegrations: QueueIntegrationDto[];
  count: number;
  hasMore: boolean;
}

export interface PromptsPage {
  prompts: PromptDto[];
  count: number;
  hasMore: boolean;
}

/** One day of a queue's (or the company's) working hours; times HH:mm; 00:00–00:00 is a closed day. */
export interface QueueScheduleDto {
  weekday: string;
  weekdayEn: 'sunday' | 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday';
  startTime: string;
  endTime: string;
}

/** One option of a queue's chatbot tree (GET /queue-options). */
export interface QueueOptionDto {
  id: number;
  queueId: number;
  /** the option it is under; null on the first level */
  parentId: number | null;
  title: string;
  message: string;
  /** what the customer answers to pick it (1 to 999) */
  option: string;
  /** how many options are under it */
  children: number;
  mediaPath: string | null;
  mediaName: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface TicketDto {
  id: number;
  uuid: string;
  companyId: number;
  status: TicketStatus;
  userId: number | null;
  user: { id: number; name: string } | null;
  queueId: number | null;
  queue: { id: number; name: string; color: string } | null;
  whatsappId: number;
  whatsapp: { id: number; name: string } | null;
  contactId: number;
  contact: Pick<ContactDto, 'id' | 'name' | 'number' | 'profilePicUrl'>;
  tags: Array<{ id: number; name: string; color: string }>;
  lastMessage: string;
  unreadMessages: number;
  isGroup: boolean;
  chatbot: boolean;
  useIntegration: boolean;
  promptId: number | null;
  integrationId: number | null;
  createdAt: string;
  updatedAt: string;
}

export type MediaType =
  | 'chat'
  | 'image'
  | 'audio'
  | 'video'
  | 'application'
  | 'locationMessage'
  | 'contactMessage'
  | 'vcard'
  | 'call_log'
  /** a message WhatsApp delivered undecryptable (empty body), waiting for the phone's resend, which replaces it */
  | 'ciphertext';

/**
 * A ticket's `lastMessage` while its last message is one waiting for the phone's resend ('ciphertext', empty body):
 * WhatsApp's waiting text (the console shows it translated, with a clock).
 */
export const WAITING_MESSAGE_PREVIEW = 'Aguardando mensagem. Essa ação pode levar alguns instantes.';

/** spec 01 §3 "Ticket note": an internal note on a ticket and its contact. */
export interface TicketNoteDto {
  id: number;
  note: string;
  ticketId: number;
  contactId: number;
  user: { id: number; name: string };
  createdAt: string;
}

/** spec 02 "Quick message". */
export interface QuickMessageDto {
  id: number;
  shortcode: string;
  message: string;
  geral: boolean;
  isMedia: boolean;
  mediaPath: string | null;
  mediaName: string | null;
  userId: number;
  companyId: number;
}

export interface QuickMessagesPage {
  records: QuickMessageDto[];
  hasMore: boolean;
}

/** GET /dashboard (spec 01 §2): counters, attendants; times in minutes. */
export interface DashboardAnswer {
  counters: {
    supportHappening: number;
    supportPending: number;
    supportFinished: number;
    avgSupportTime: number;
    avgWaitTime: number;
    /** super users only */
    totalWhatsappSessions?: number;
    totalCompanies?: number;
  };
  attendants: Array<{ id: number; name: string; rating: number | null; avgSupportTime: number; tickets: number; online: boolean }>;
  /** the period the figures cover, in the company's days */
  period: { from: string; to: string; timeZone: string };
}

/** GET /dashboard/ticketsUsers ({nome, quantidade}) and /dashboard/ticketsDay ({data, total} or, for one day, {horario, total}). */
export interface DashboardChart {
  data: Array<{ nome: string; quantidade: number } | { data: string; total: number } | { horario: string; total: number }>;
  count: number;
}

/** Where a scheduled message stands: waiting for its time, sent, or failed (ERRO, with the reason). */
export type ScheduleStatus = 'PENDENTE' | 'ENVIADA' | 'ERRO';

/** spec 01 §3 "Schedule". */
export interface ScheduleDto {
  id: number;
  body: string;
  contactId: number;
  contact: { id: number; name: string; number: string } | null;
  /** ISO time it is sent at */
  sendAt: string;
  sentAt: string | null;
  status: ScheduleStatus;
  /** why it failed (status ERRO) */
  reason: string | null;
  /** the ticket it went into, once sent */
  ticketId: number | null;
  mediaPath: string | null;
  mediaName: string | null;
  userId: number;
  companyId: number;
  createdAt: string;
  updatedAt: string;
}

export interface SchedulesPage {
  schedules: ScheduleDto[];
  hasMore: boolean;
  count: number;
}

export interface MessageDto {
  id: number;
  /** the WhatsApp message id */
  wid: string;
  ticketId: number;
  companyId: number;
  contactId: number | null;
  body: string;
  fromMe: boolean;
  mediaType: MediaType;
  mediaUrl: string | null;
  quotedMsgId: number | null;
  /**
   * the message this one answers (quotedMsgId), with its `contact` (id, name, number), as the original client reads
   * it (`quotedMsg.body`, `.fromMe`, `.mediaType`, `.contact?.name`); null when it answers none. Every message
   * tickets gives out carries it (answers, pages, events).
   */
  quotedMsg?: MessageDto | null;
  /** 0 pending (clock), 1 sent, 2 server, 3 delivered, 4 read, 5 played */
  ack: number;
  /** why its send was given up (it never reached WhatsApp); null once it did */
  failedReason?: string | null;
  read: boolean;
  isDeleted: boolean;
  /** its text was changed after it was sent */
  isEdited: boolean;
  /** sent by the bot (greeting, menu, out-of-hours, rating), not by an agent */
  isBot?: boolean;
  /** an audio recorded as a WhatsApp voice note (OGG/Opus, `ptt`): shown as a voice note, not as a file */
  voice?: boolean;
  /** a shared place (mediaType 'locationMessage'; `body` keeps "lat,long" for older clients) */
  location?: MessageLocation | null;
  /** contact cards (mediaType 'vcard' / 'contactMessage'; `body` keeps the vCard text for older clients) */
  contacts?: MessageContactCard[] | null;
  /** the emoji reactions on this message, one per who reacted (a reaction is no message of its own) */
  reactions?: MessageReaction[];
  contact?: Pick<ContactDto, 'id' | 'name' | 'number'> | null;
  createdAt: string;
  updatedAt: string;
}

/** A place shared in a message (WhatsApp's location or live location). */
export interface MessageLocation {
  latitude: number;
  longitude: number;
  name?: string | null;
  address?: string | null;
}

/** A contact card (vCard) as the chat shows it: its name and phone numbers. */
export interface MessageContactCard {
  name: string;
  numbers: string[];
}

/** An emoji reaction on a message: who reacted (the customer, a group member's number, or us: `fromMe`). */
export interface MessageReaction {
  emoji: string;
  fromMe: boolean;
  /** the customer's (or group member's) number; '' for ours */
  from: string;
}

/** The emoji the console offers to react with (`POST /messages/{id}/react`); any single emoji is accepted. */
export const QUICK_REACTIONS = ['👍', '❤️', '😂', '😮', '😢', '🙏'] as const;

export interface TicketsPage {
  tickets: TicketDto[];
  hasMore: boolean;
  /** opaque cursor of the next page (faster than pageNumber deep in a list) */
  nextCursor: string | null;
}

export interface MessagesPage {
  messages: MessageDto[];
  hasMore: boolean;
  nextCursor: string | null;
  ticket?: TicketDto;
}

/** ERR_OTHER_OPEN_TICKET body: who holds the contact's open ticket. */
export interface OtherOpenTicketBody {
  error: 'ERR_OTHER_OPEN_TICKET';
  message: string;
  userId: number | null;
  userName: string | null;
  queueName: string | null;
  ticketId: number;
}

/** A public API message's state, from its ack: queued (0), sent (1–2), delivered (3), read (4–5); failed: given up. */
export type ApiMessageState = 'queued' | 'sent' | 'delivered' | 'read' | 'failed';

/** The public messages API's answer: a message sent through a connection, as it stands. */
export interface ApiMessageStatus {
  id: number;
  ticketId: number;
  number: string;
  body: string;
  mediaType: string;
  state: ApiMessageState;
  ack: number;
  /** why it failed (state failed) */
  reason: string | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * What a company's webhook can be told of: a message's and a ticket's events, and (issue 45 §3) a connection's
 * status and QR code, a contact made or changed, and the delivery status of a message sent (webhook-events.types.ts).
 */
export const WEBHOOK_EVENTS = [
  'message.received',
  'message.sent',
  'message.updated',
  'ticket.status',
  'connection.status',
  'connection.qrcode',
  'contact.updated',
  'message.status',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** A company's webhook endpoint as admins read it (the secret is never shown again). */
export interface WebhookSettingsDto {
  url: string | null;
  events: WebhookEvent[];
  enabled: boolean;
  hasSecret: boolean;
  updatedAt: string | null;
}

/** One delivery of the log: what was told, and how it went. */
export interface WebhookDeliveryDto {
  id: string;
  event: WebhookEvent;
  /** the ticket it tells of; null for a connection's or a contact's event */
  ticketId: number | null;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
  nextAttemptAt: string | null;
  /** the delivery this one sends again (`POST /webhook-deliveries/{id}/replay`), null for an event's own delivery */
  replayOf: string | null;
}

export interface WebhookDeliveriesPage {
  deliveries: WebhookDeliveryDto[];
  hasMore: boolean;
}

/**
 * `PUT /webhook-settings`'s answer: the webhook as it is now, and, only when this save created it without a secret
 * given, the signing secret the server made (shown this once; GET never shows it).
 */
export interface WebhookSettingsSavedDto extends WebhookSettingsDto {
  secret?: string;
}

/** `POST /webhook-settings/secret`'s answer: the new signing secret, shown this once (the old one no longer signs). */
export interface WebhookSecretDto {
  secret: string;
}

/** spec 02 "Chat": a company's internal conversation between users. */
export interface ChatDto {
  id: number;
  uuid: string;
  title: string;
  ownerId: number;
  lastMessage: string;
  createdAt: string;
  updatedAt: string;
  users: Array<{ userId: number; unreads: number; user: { id: number; name: string } }>;
}

export interface ChatMessageDto {
  id: number;
  chatId: number;
  message: string;
  senderId: number;
  sender: { id: number; name: string };
  createdAt: string;
}

/** spec 02 "File list": a named set of files (each option a name and an uploaded file) with a message. */
export interface FileListOptionDto {
  id: number;
  name: string;
  /** the stored file's key, or null until its file is uploaded */
  path: string | null;
  /** the stored file's MIME type, or null */
  mediaType: string | null;
  /** where the company's users read the file (`/media/...`), or null */
  file: string | null;
}

export interface FileListDto {
  id: number;
  name: string;
  message: string;
  userId: number | null;
  options: FileListOptionDto[];
  createdAt: string;
  updatedAt: string;
}

/** `GET /files` (searchParam, pageNumber): by name. */
export interface FileListsPage {
  files: FileListDto[];
  count: number;
  hasMore: boolean;
}

export interface ChatsPage {
  records: ChatDto[];
  count: number;
  hasMore: boolean;
}

export interface ChatMessagesPage {
  /** oldest first within the page; page 1 holds the newest messages */
  records: ChatMessageDto[];
  count: number;
  hasMore: boolean;
}
