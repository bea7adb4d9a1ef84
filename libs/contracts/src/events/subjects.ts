import type { Profile } from '../auth/auth.types.js';

/**
 * JetStream streams and the subjects they carry. Each stream owns a subject prefix;
 * subjects carry the conversation key so consumers can run many in parallel and each in order.
 */
export const Streams = {
  AUTH: { name: 'AUTH', subjects: ['auth.>', 'user.>', 'company.>'] },
  WA: { name: 'WA', subjects: ['wa.>'] },
  TICKETS: { name: 'TICKETS', subjects: ['ticket.>', 'message.>', 'contact.>', 'queue.>', 'prompt.>', 'schedule.>', 'chat.>', 'files.>'] },
  CONNECTIONS: { name: 'CONNECTIONS', subjects: ['connection.>'] },
  BILLING: { name: 'BILLING', subjects: ['billing.>', 'plan.>'] },
  CAMPAIGNS: { name: 'CAMPAIGNS', subjects: ['campaign.>'] },
} as const;

type StreamDef = (typeof Streams)[keyof typeof Streams];

/**
 * Which streams each service publishes to (it declares them) and which it only consumes. The NATS users of
 * k8s/base/nats.conf grant exactly this: a service publishes to the subjects of its own streams and
 * creates consumers on the others, nothing more.
 */
export const StreamAccess: Record<string, { owns: readonly StreamDef[]; reads: readonly StreamDef[] }> = {
  auth: { owns: [Streams.AUTH], reads: [Streams.TICKETS, Streams.CONNECTIONS, Streams.BILLING] },
  tickets: { owns: [Streams.TICKETS, Streams.WA], reads: [Streams.AUTH, Streams.CONNECTIONS, Streams.BILLING, Streams.CAMPAIGNS] },
  'whatsapp-sessions': { owns: [Streams.CONNECTIONS, Streams.WA], reads: [Streams.AUTH, Streams.TICKETS, Streams.CAMPAIGNS] },
  'realtime-gateway': { owns: [], reads: [Streams.TICKETS, Streams.CONNECTIONS, Streams.AUTH, Streams.BILLING, Streams.CAMPAIGNS] },
  'messaging-gateway': { owns: [], reads: [] },
  campaigns: { owns: [Streams.CAMPAIGNS], reads: [Streams.WA, Streams.CONNECTIONS] },
  billing: { owns: [Streams.BILLING], reads: [Streams.AUTH] },
};

export const Subjects = {
  /** A login replaced older sessions of the same user: `auth.session.replaced.<companyId>.<userId>` */
  sessionReplaced: (companyId: number, userId: number) => `auth.session.replaced.${companyId}.${userId}`,
  userCreated: (companyId: number, userId: number) => `user.created.${companyId}.${userId}`,
  userUpdated: (companyId: number, userId: number) => `user.updated.${companyId}.${userId}`,
  userDeleted: (companyId: number, userId: number) => `user.deleted.${companyId}.${userId}`,
  settingUpdated: (companyId: number, key: string) => `company.setting.updated.${companyId}.${key}`,
  companyCreated: (companyId: number) => `company.created.${companyId}`,
  companyUpdated: (companyId: number) => `company.updated.${companyId}`,
  companyDeleted: (companyId: number) => `company.deleted.${companyId}`,
  companySchedulesUpdated: (companyId: number) => `company.schedules.updated.${companyId}`,
  /** platform-wide (no company segment): every socket hears it */
  announcementUpdated: (announcementId: number) => `company.announcement.updated.${announcementId}`,
  announcementDeleted: (announcementId: number) => `company.announcement.deleted.${announcementId}`,
  /** platform-wide: a help (spec 02 "Helps") saved or deleted */
  helpUpdated: (helpId: number) => `company.help.updated.${helpId}`,
  helpDeleted: (helpId: number) => `company.help.deleted.${helpId}`,
} as const;

/** On `Subjects.helpUpdated` / `helpDeleted`. */
export interface HelpChangedEvent {
  helpId: number;
  at: string;
}

export interface SessionReplacedEvent {
  companyId: number;
  userId: number;
  /** the session that stays */
  sessionId: string;
  /** sessions that were ended */
  endedSessionIds: string[];
  at: string;
}

export interface UserChangedEvent {
  companyId: number;
  userId: number;
  name: string;
  email: string;
  profile: Profile;
  queueIds: number[];
  allTicket: string;
  super: boolean;
  at: string;
}

export interface UserDeletedEvent {
  companyId: number;
  userId: number;
  at: string;
}

export interface SettingUpdatedEvent {
  companyId: number;
  key: string;
  value: string;
  at: string;
}
