import type { SearchPageQuery } from '../auth/auth.requests.js';
import type { QueueScheduleDto, TicketStatus, WebhookEvent } from './tickets.types.js';

/*
 * What tickets' routes take (bodies and query strings). Its class-validator DTOs implement these
 * (`implements RequestDto<TheDto, TheRequest>`), so a field renamed on one side fails the other's typecheck; the
 * rules (lengths, formats, Portuguese messages) stay in the DTOs. Numbers of a query string, or of a multipart
 * body, may come as text ("12").
 */

// ——— conversation: tickets ———

/** `GET /tickets`: a page of the caller's tickets, by tab and filters (the lists as JSON text, `queueIds=[1,2]`, or repeated). */
export interface TicketsQuery {
  status?: TicketStatus;
  /** part of the contact's name or number, or of a message */
  searchParam?: string;
  pageNumber?: number;
  /** the previous page's `nextCursor` */
  cursor?: string;
  /** admins: every user's tickets */
  showAll?: boolean;
  withUnreadMessages?: boolean;
  queueIds?: number[];
  /** admins: these users' tickets */
  users?: number[];
  tags?: number[];
  /** YYYY-MM-DD: created that day */
  date?: string;
  /** YYYY-MM-DD: changed that day */
  updatedAt?: string;
}

/** `POST /tickets`: a ticket for a contact (spec 01 §4 "new ticket"). */
export interface CreateTicketRequest {
  contactId: number;
  /** null or left out: none */
  queueId?: number | null;
  /** null or left out: the company's default connection */
  whatsappId?: number | null;
  userId?: number | null;
  status?: TicketStatus;
}

/** `PUT /tickets/{id}`: accept, transfer, return, resolve or reopen a ticket (what changes names the move). */
export interface UpdateTicketRequest {
  status?: TicketStatus;
  /** null: nobody's */
  userId?: number | null;
  queueId?: number | null;
  whatsappId?: number | null;
  useIntegration?: boolean;
  promptId?: number | null;
  integrationId?: number | null;
}

/** `GET /ticket/kanban` (spec 02): the board's tickets. */
export interface KanbanTicketsQuery {
  /** JSON text (`[1,2]`) or repeated */
  queueIds?: number[];
  /** sent by the product's client; changes nothing */
  teste?: string;
  cursor?: string;
  pageNumber?: number;
}

// ——— conversation: messages ———

/** `POST /messages/{ticketId}` (JSON, or multipart with `medias`): an agent's message into the ticket's conversation. */
export interface SendMessageRequest {
  /** required without files; with files, the first one's caption */
  body?: string;
  /** true/false, or 1/0 as the original web client sends them */
  read?: boolean;
  fromMe?: boolean;
  mediaUrl?: string | null;
  /** the message answered: `{ id }` of one of the ticket's messages (multipart: its JSON text) */
  quotedMsg?: { id?: number } | null;
  /** multipart with one audio file: send it as a WhatsApp voice note (transcoded to OGG/Opus); true/false or 1/0 */
  voice?: boolean;
  /** JSON, instead of a text: a place `{ latitude, longitude, name?, address? }` */
  location?: { latitude: number; longitude: number; name?: string; address?: string };
  /** JSON, instead of a text: a contact card `{ name, number }` */
  contact?: { name: string; number: string };
}

/** `POST /messages/{id}/react`: react to a message with an emoji; '' removes our reaction. */
export interface ReactMessageRequest {
  emoji: string;
}

/** `POST /messages/edit/{id}` (or `PUT /messages/{id}`): the new text; the other fields the original client sends are taken and ignored. */
export interface EditMessageRequest {
  body?: string;
  read?: boolean;
  fromMe?: boolean;
  mediaUrl?: string | null;
  quotedMsg?: unknown;
}

/** `GET /messages/{ticketId}`: a page of the conversation, newest first. */
export interface MessagesQuery {
  pageNumber?: number;
  /** true: a look at the conversation (the ticket preview): the unread count stays as it is */
  preview?: boolean;
  cursor?: string;
}

// ——— conversation: contacts ———

/** One extra-info row of a contact. */
export interface ContactExtraInfoRequest {
  name: string;
  value: string;
}

/** `POST /contacts` (spec 01 §5): name 2–50, number 8–50 (digits with country and area code), a valid email when one is given. */
export interface CreateContactRequest {
  name: string;
  number: string;
  /** '' or null: none */
  email?: string | null;
  extraInfo?: ContactExtraInfoRequest[];
}

/** `PUT /contacts/{id}`: any part of a contact (extraInfo, when sent, is the whole list). */
export interface UpdateContactRequest {
  name?: string;
  number?: string;
  email?: string | null;
  extraInfo?: ContactExtraInfoRequest[];
}

/** `GET /contacts`: a page of contacts; the days are YYYY-MM-DD, the company's. */
export interface ContactsQuery extends SearchPageQuery {
  /** created that day */
  date?: string;
  /** created from that day on */
  dateStart?: string;
  /** created up to that day */
  dateEnd?: string;
}

/** `POST /contacts/import`: the contacts of a connection's phone (its default one when absent). */
export interface ImportPhoneContactsRequest {
  whatsappId?: number;
}

// ——— conversation: notes ———

/** `POST /ticket-notes` (spec 01 §5): a note of at least 2 characters on a ticket and its contact. */
export interface CreateNoteRequest {
  note: string;
  ticketId: number;
  contactId: number;
}

/** `GET /ticket-notes/list`: the notes of a ticket's contact. */
export interface NotesQuery {
  ticketId: number;
  contactId: number;
  pageNumber?: number;
}

// ——— conversation: tags ———

/** `POST /tags` (spec 02 §5): a name of at least 3 characters. */
export interface CreateTagRequest {
  name: string;
  /** `#A4CCCC` or a colour's name */
  color?: string;
  /** 1: a kanban column */
  kanban?: number;
}

/** `PUT /tags/{id}`: any part of a tag. */
export type UpdateTagRequest = Partial<CreateTagRequest>;

/** `GET /tags`. */
export type TagsQuery = SearchPageQuery;

/** `POST /tags/sync`: the ticket's tags become exactly these. */
export interface SyncTagsRequest {
  ticketId: number;
  tags: Array<{ id: number }>;
}

// ——— conversation: queues ———

/** What a queue's create and edit share beyond its name and colour: all optional. */
export interface QueueSettingsRequest {
  greetingMessage?: string;
  outOfHoursMessage?: string;
  /** its place in the bot's menu; null: none (then by name) */
  orderQueue?: number | null;
  /** working hours, a day at most once (used when the company's scheduleType is queue) */
  schedules?: QueueScheduleDto[];
  /** the AI prompt answering its customers; null: none */
  promptId?: number | null;
  /** the outside flow answering its customers; null: none */
  integrationId?: number | null;
}

/** `POST /queue`: a queue, its name 2–50, its colour `#rgb`…`#rrggbbaa` or a colour's name. */
export interface CreateQueueRequest extends QueueSettingsRequest {
  name: string;
  color: string;
}

/** `PUT /queue/{id}`: any part of a queue. */
export interface UpdateQueueRequest extends QueueSettingsRequest {
  name?: string;
  color?: string;
}

// ——— conversation: quick messages ———

/** `POST /quick-messages` (spec 02 §5): the shortcode is required; media goes apart (`/quick-messages/{id}/media-upload`). */
export interface CreateQuickMessageRequest {
  shortcode: string;
  message?: string;
  /** shared with the whole company */
  geral?: boolean;
  isMedia?: boolean;
  mediaPath?: string | null;
}

/** `PUT /quick-messages/{id}`: any part of a quick message. */
export type UpdateQuickMessageRequest = Partial<CreateQuickMessageRequest>;

/** `GET /quick-messages` (and `/quick-messages/list`). */
export interface QuickMessagesQuery extends SearchPageQuery {
  /** sent by the product's client; what a caller sees is decided by their token */
  userId?: number;
  companyId?: number;
}

// ——— automation ———

/** `POST /prompt` (spec 02 §5 "Prompt"): name 5–100, the instructions at least 50 characters, the queue it answers. */
export interface CreatePromptRequest {
  name: string;
  prompt: string;
  queueId: number;
  /** default 'texto' */
  voice?: string;
  voiceKey?: string;
  voiceRegion?: string;
  /** default 100 */
  maxTokens?: number;
  /** 0 to 2, default 1 */
  temperature?: number;
  /** the model's API key; stored encrypted, answered masked */
  apiKey?: string;
  /** default 10 */
  maxMessages?: number;
}

/** `PUT /prompt/{id}`: any part of a prompt (the masked key the form shows back leaves the stored one). */
export type UpdatePromptRequest = Partial<CreatePromptRequest>;

/** `GET /prompt`. */
export type PromptsQuery = SearchPageQuery;

/** `GET /queue-options`: a queue's bot options of one level. */
export interface QueueOptionsQuery {
  queueId: number;
  /** the option whose sub-options to list; left out (or empty): the first level */
  parentId?: number;
}

/** `POST /queue-options`: an option of a queue's bot menu. */
export interface CreateQueueOptionRequest {
  queueId: number;
  /** the option it goes under; null or left out: the first level */
  parentId?: number | null;
  title: string;
  /** what the bot sends when the customer picks it */
  message?: string;
  /** what the customer answers to pick it: 1 to 999, unique on its level */
  option: string;
}

/** `PUT /queue-options/{id}`: its title, message or key. */
export interface UpdateQueueOptionRequest {
  title?: string;
  message?: string;
  option?: string;
}

/** A queue integration's kind (spec 02 "Queue integration"). */
export type QueueIntegrationType = 'dialogflow' | 'n8n' | 'webhook' | 'typebot';

/** What a queue integration's create and edit share: all optional, each kind reads its own. */
export interface QueueIntegrationSettingsRequest {
  projectName?: string;
  /** Dialogflow's service-account JSON; stored encrypted, answered masked */
  jsonContent?: string;
  /** pt-BR, en or es */
  language?: string;
  /** the flow's URL (n8n, webhook, typebot) */
  urlN8N?: string;
  typebotSlug?: string;
  /** minutes; default 1 */
  typebotExpires?: number;
  typebotKeywordFinish?: string;
  typebotKeywordRestart?: string;
  typebotUnknownMessage?: string;
  typebotRestartMessage?: string;
  /** ms; default 1000 */
  typebotDelayMessage?: number;
}

/** `POST /queueIntegration`: an integration, its name 2–50. */
export interface CreateQueueIntegrationRequest extends QueueIntegrationSettingsRequest {
  type: QueueIntegrationType;
  name: string;
}

/** `PUT /queueIntegration/{id}`: any part of an integration. */
export interface UpdateQueueIntegrationRequest extends QueueIntegrationSettingsRequest {
  type?: QueueIntegrationType;
  name?: string;
}

/** `GET /queueIntegration`. */
export type QueueIntegrationsQuery = SearchPageQuery;

/** `POST /queueIntegration/testSession`: Dialogflow's credentials, tried. */
export interface TestDialogflowSessionRequest {
  projectName: string;
  jsonContent: string;
  /** pt-BR, en or es */
  language: string;
}

// ——— scheduling ———

/**
 * `POST /schedules` (spec 01 §5 "Schedule"): the text, at least 5 characters; the contact; `sendAt` an ISO time, or
 * one without offset (what a datetime-local field sends), read on the company's clocks.
 */
export interface CreateScheduleRequest {
  body: string;
  contactId: number;
  sendAt: string;
  /** sent by the product's client; a schedule is its author's (the caller's) */
  userId?: number;
}

/** `PUT /schedules/{id}`: any part of a schedule. */
export type UpdateScheduleRequest = Partial<CreateScheduleRequest>;

/** `GET /schedules`: a page of schedules, or the calendar's range. */
export interface SchedulesQuery {
  /** the contact's name or number, or the message's text */
  searchParam?: string;
  pageNumber?: number;
  contactId?: number;
  /** ISO times: schedules whose sendAt falls in [from, to) */
  from?: string;
  to?: string;
  /** sent by the product's client; what a caller sees is decided by their token */
  userId?: number;
  companyId?: number;
}

// ——— webhooks ———

/** `PUT /webhook-settings` (admins): where and what the company's webhook delivers. */
export interface WebhookSettingsRequest {
  /** http(s) */
  url: string;
  /**
   * signs each delivery (HMAC-SHA256); at least 16 characters. Optional: left out, the webhook keeps its secret, or
   * on its first save the server makes one and answers it once (`secret` in the answer); `POST /webhook-settings/secret` makes a new one.
   */
  secret?: string;
  /** one or more */
  events: WebhookEvent[];
  /** default true */
  enabled?: boolean;
}

/** `GET /webhook-deliveries` (admins). */
export interface WebhookDeliveriesQuery {
  pageNumber?: number;
  status?: 'pending' | 'delivered' | 'failed';
}

// ——— public API ———

/**
 * `POST /api/messages/send` (spec 02 §7, a connection's token; JSON, or multipart with `medias`): a text, or files
 * with the text as the first one's caption, to a number.
 */
export interface ApiSendMessageRequest {
  /** with country and area code, digits only */
  number: string;
  /** required without files, a location or a contact */
  body?: string;
  /** with one audio file: sent as a WhatsApp voice note (transcoded to OGG/Opus); true/false or 1/0 */
  voice?: boolean;
  /** a place to send instead of a text (multipart: its JSON text) */
  location?: { latitude: number; longitude: number; name?: string; address?: string };
  /** a contact card to send instead of a text (multipart: its JSON text) */
  contact?: { name: string; number: string };
}

// ——— reporting ———

/** `GET /dashboard` (spec 01 §7): the last `days`, or `date_from` to `date_to` (YYYY-MM-DD, the company's days). */
export interface DashboardQuery {
  days?: number;
  date_from?: string;
  date_to?: string;
}

/** `GET /dashboard/ticketsUsers` and `/dashboard/ticketsDay` (YYYY-MM-DD). */
export interface DashboardChartQuery {
  initialDate?: string;
  finalDate?: string;
  /** sent by the product's client; the company is the caller's */
  companyId?: number;
}

// ——— team chat ———

/** `POST /chats` (spec 02 §5 "Internal chat"): a title and the members besides the owner (the caller). */
export interface CreateChatRequest {
  title: string;
  users: Array<{ id: number }>;
}

/** `PUT /chats/{id}`: its title or members. */
export type UpdateChatRequest = Partial<CreateChatRequest>;

/** `POST /chats/{id}/messages`. */
export interface ChatMessageRequest {
  message: string;
}

/** `GET /chats`, `GET /chats/{id}/messages`. */
export interface ChatsPageQuery {
  pageNumber?: number;
}

/** `POST /chats/{id}/read`: the reader is the caller whatever `userId` says. */
export interface ChatReadRequest {
  userId?: number;
}

// ——— file lists ———

/** One option of a file list: an existing one (`id`, kept with its file) or a new one. */
export interface FileListOptionRequest {
  id?: number;
  name: string;
}

/** `POST /files` (spec 02 §5 "File list"): a name of at least 3 characters, the message, the options. */
export interface CreateFileListRequest {
  name: string;
  message: string;
  options?: FileListOptionRequest[];
  /** sent by the product's client; the author is the caller whatever it says */
  userId?: unknown;
}

/** `PUT /files/{id}`: any part of a list; `options`, when sent, are those it keeps, in order (the others go with their files). */
export interface UpdateFileListRequest {
  name?: string;
  message?: string;
  options?: FileListOptionRequest[];
  userId?: unknown;
}

/** `GET /files`. */
export interface FileListsQuery extends SearchPageQuery {
  /** sent by the product's client; the company is the caller's */
  companyId?: unknown;
}

/** `POST /files/uploadList/{id}` (multipart, with `files`): per file, in order, the option it is for. */
export interface UploadFileListRequest {
  id: number[];
  /** what the client says the files are; their bytes decide */
  mediaType?: string[];
  typeArch?: string;
  /** sent by the product's client, ignored */
  fileId?: unknown;
  name?: unknown;
}
