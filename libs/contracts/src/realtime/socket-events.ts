import type {
  ContactDto,
  MessageDto,
  QueueDto,
  ScheduleDto,
  TicketDto,
  ChatDto,
  ChatMessageDto,
  FileListDto,
} from '../tickets/tickets.types.js';
import type { SessionEndReason, WhatsappDto } from '../whatsapp/whatsapp.types.js';
import type { AllTicket, Profile } from '../auth/auth.types.js';

/** Channel names of the live socket (spec 01 §7 "Live socket"). */
export const SocketChannels = {
  ticket: (companyId: number) => `company-${companyId}-ticket`,
  appMessage: (companyId: number) => `company-${companyId}-appMessage`,
  whatsapp: (companyId: number) => `company-${companyId}-whatsapp`,
  whatsappSession: (companyId: number) => `company-${companyId}-whatsappSession`,
  contact: (companyId: number) => `company-${companyId}-contact`,
  schedule: (companyId: number) => `company-${companyId}-schedule`,
  queue: (companyId: number) => `company-${companyId}-queue`,
  user: (companyId: number) => `company-${companyId}-user`,
  chat: (companyId: number) => `company-${companyId}-chat`,
  files: (companyId: number) => `company-${companyId}-files`,
  /** to a ticket's chat box: the customer is typing or recording, or stopped (payload: PresenceSocketEvent) */
  presence: (companyId: number) => `company-${companyId}-presence`,
  /** a company setting changed (a secret one only masked): `{ action: 'update', setting: { key, value } }` */
  settings: (companyId: number) => `company-${companyId}-settings`,
  /** a payment confirmed and the renewal applied (payload: PaymentEvent, action CONCLUIDA), to that company's sockets */
  payment: (companyId: number) => `company-${companyId}-payment`,
  /** platform-wide: the super users' announcements (payload: AnnouncementEvent); an inactive one goes whole to super users' sockets only, and to every other socket as a deletion */
  announcement: () => 'company-announcement',
  /** per-user auth event: the account signed in elsewhere */
  auth: (companyId: number) => `company-${companyId}-auth`,
  /** platform-wide, to super users: a company was created, changed or deleted (payload: PlatformListEvent; the list reloads) */
  companies: () => 'platform-company',
  /** platform-wide, to super users: a plan was saved or deleted (payload: PlatformListEvent) */
  plans: () => 'platform-plan',
  /** platform-wide, to every socket: a help was saved or deleted (payload: PlatformListEvent) */
  helps: () => 'platform-help',
} as const;

/**
 * On `platform-company`, `platform-plan` and `platform-help` (spec 02 §3: "Company, plan and help lists refresh
 * live (create, update, delete, reload)"): which record changed; the page reloads what it shows.
 */
export interface PlatformListEvent {
  action: 'create' | 'update' | 'delete';
  id: number;
}

/** On `company-<id>-presence`, to the chat box of a ticket: what its customer is doing now (shown for a few seconds at most). */
export interface PresenceSocketEvent {
  ticketId: number;
  state: 'composing' | 'recording' | 'paused';
}

/** Events a client emits on the live socket (spec 01 §7 "Live socket"). */
export const SocketClientEvents = {
  /** `ticketId` (number or numeric string, or `{ ticketId }`): follow one ticket's chat */
  joinChatBox: 'joinChatBox',
  leaveChatBox: 'leaveChatBox',
  joinNotification: 'joinNotification',
  /** a ticket status: `pending`, `open` or `closed` */
  joinTickets: 'joinTickets',
  leaveTickets: 'leaveTickets',
  /** heartbeat every 300000 ms: the user is online */
  userStatus: 'userStatus',
} as const;

/** What the server answers to a client event (the ack, or an `error` event when no ack was asked for). */
export type SocketAck = { ok: true } | { ok: false; event: string; error: string; message: string };

/** Payloads of the company channels (`SocketChannels`). */
export type TicketChannelPayload =
  { action: 'update'; ticket: TicketDto } | { action: 'delete'; ticketId: number } | { action: 'updateUnread'; ticketId: number };
export interface AppMessageChannelPayload {
  action: 'create' | 'update';
  message: MessageDto;
  ticket: TicketDto;
  contact: Pick<ContactDto, 'id' | 'name' | 'number' | 'profilePicUrl'>;
}
export type WhatsappChannelPayload = { action: 'update'; whatsapp: WhatsappDto } | { action: 'delete'; whatsappId: number };
export interface WhatsappSessionChannelPayload {
  action: 'update';
  session: WhatsappDto;
  /** why WhatsApp ended the session (a logout, a ban, another client took it), on its DISCONNECTED; absent otherwise */
  reason?: SessionEndReason;
}
/** On `company-<id>-user`: a user as the users page lists it. */
export type UserChannelPayload =
  | {
      action: 'create' | 'update';
      user: {
        id: number;
        name: string;
        email: string;
        profile: Profile;
        queueIds: number[];
        allTicket: AllTicket;
        super: boolean;
        companyId: number;
      };
    }
  | { action: 'delete'; userId: number };
export type ScheduleChannelPayload = { action: 'update'; schedule: ScheduleDto } | { action: 'delete'; scheduleId: number };
/** On `company-<id>-queue`, to everyone of the company (the queue pickers and the queues page). */
export type QueueChannelPayload = { action: 'update'; queue: QueueDto } | { action: 'delete'; queueId: number };
export type ContactChannelPayload = { action: 'update'; contact: ContactDto } | { action: 'delete'; contactId: number };
/** `company-{id}-chat`, to the chat's members only: a new message (with the chat as it now is), a change, a deletion. */
export type ChatChannelPayload =
  | { action: 'new-message'; chat: ChatDto; newMessage: ChatMessageDto }
  | { action: 'update'; chat: ChatDto }
  | { action: 'delete'; chatId: number };
/** On `company-<id>-settings`, to everyone of the company. */
export interface SettingsChannelPayload {
  action: 'update';
  setting: { key: string; value: string };
}
/** On `company-<id>-files`, to everyone of the company. */
export type FilesChannelPayload = { action: 'update'; fileList: FileListDto } | { action: 'delete'; fileListId: number };
/** On `company-<id>-auth`, to the sockets of ended login sessions only. */
export interface AuthChannelPayload {
  action: 'sessionReplaced';
  user: { id: number };
}

/** The user-online heartbeat: realtime-gateway sets this Redis key (value: ISO time) for USER_ONLINE_TTL_MS. */
export const USER_ONLINE_TTL_MS = 600_000;
export const userOnlineKey = (companyId: number, userId: number) => `presence:online:${companyId}:${userId}`;

/**
 * The plan gate's cache is checked against these Redis counters: auth raises a company's when its plan or status
 * changes, and the shared one when a plan changes, after the commit; the gateway reuses a company's plan only
 * while both are what they were when it asked.
 */
export const planEpochKey = (companyId: number) => `plan-epoch:company:${companyId}`;
export const PLAN_EPOCH_ALL = 'plan-epoch:all';
