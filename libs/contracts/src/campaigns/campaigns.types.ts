import type { WaMedia } from '../events/whatsapp.events.js';

/** Spec 02 §4: a campaign's states. */
export type CampaignStatus = 'INATIVA' | 'PROGRAMADA' | 'EM_ANDAMENTO' | 'CANCELADA' | 'FINALIZADA';

/** Spec 02 §3 "Contact list". */
export interface ContactListDto {
  id: number;
  name: string;
  companyId: number;
  /** the list's items */
  contactsCount: number;
  createdAt: string;
  updatedAt: string;
}

/** Spec 02 §3 "Contact list item". */
export interface ContactListItemDto {
  id: number;
  name: string;
  /** digits, in the one form contacts are kept (the Brazilian 9th-digit variants are one number) */
  number: string;
  email: string;
  /** null until the background check on WhatsApp answered */
  isWhatsappValid: boolean | null;
  contactListId: number;
  companyId: number;
  createdAt: string;
  updatedAt: string;
}

/** What an import of a spreadsheet did, live on `company-<id>-ContactList` while it runs and when it ends. */
export interface ContactListImportProgress {
  contactListId: number;
  /** rows read so far / rows in the file */
  processed: number;
  total: number;
  added: number;
  duplicates: number;
  invalid: number;
  done: boolean;
  /** why the import stopped (the file could not be read) */
  error?: string;
}

/** Spec 02 §3 "Campaign". */
export interface CampaignDto {
  id: number;
  name: string;
  message1: string;
  message2: string;
  message3: string;
  message4: string;
  message5: string;
  confirmationMessage1: string;
  confirmationMessage2: string;
  confirmationMessage3: string;
  confirmationMessage4: string;
  confirmationMessage5: string;
  status: CampaignStatus;
  confirmation: boolean;
  scheduledAt: string | null;
  completedAt: string | null;
  whatsappId: number | null;
  contactListId: number | null;
  /** a tag's id as text, or 'Nenhuma' (the spec's default): the company's contacts carrying the tag */
  tagListId: string;
  companyId: number;
  mediaPath: string | null;
  mediaName: string | null;
  fileListId: number | null;
  /** why the server stopped it (the number was banned or logged out, the plan lost campaigns) */
  statusReason: string | null;
  whatsapp: { id: number; name: string } | null;
  contactList: { id: number; name: string } | null;
  createdAt: string;
  updatedAt: string;
}

/** GET /campaigns/{id}/report. */
export interface CampaignReport {
  /** rows frozen with a number on WhatsApp (not skipped as invalid) */
  valid: number;
  invalid: number;
  /** left the connection (ack ≥ 1) */
  sent: number;
  delivered: number;
  read: number;
  failed: number;
  /** still to go (including rows waiting for the next day's cap) */
  pending: number;
  confirmationRequested: number;
  confirmed: number;
  optedOut: number;
}

/** Spec 02 §9: the options of the three selects, and their defaults. */
export const CAMPAIGN_INTERVALS = {
  messageInterval: { options: [0, 5, 10, 15, 20], default: 20 },
  longerIntervalAfter: { options: [0, 1, 5, 10, 15, 20, 30, 40, 60, 80, 100, 120], default: 20 },
  greaterInterval: { options: [0, 1, 5, 10, 15, 20, 30, 40, 60, 80, 100, 120], default: 60 },
} as const;

export interface CampaignVariable {
  key: string;
  value: string;
}

/** The body of POST /campaign-settings (what the original client sends). */
export interface CampaignSettingsBody {
  settings: {
    messageInterval: number;
    longerIntervalAfter: number;
    greaterInterval: number;
    variables: CampaignVariable[];
    /** whole messages that opt a contact out of the company's campaigns (default DEFAULT_OPT_OUT_KEYWORDS) */
    optOutKeywords?: string[];
  };
}

/** The words that opt a contact out of a company's campaigns when it keeps none of its own (any case and accents). */
export const DEFAULT_OPT_OUT_KEYWORDS: readonly string[] = ['SAIR', 'PARAR', 'STOP', 'CANCELAR', 'DESCADASTRAR'];

/** One entry of GET /campaign-settings: `value` is JSON text. */
export interface CampaignSettingDto {
  key: 'messageInterval' | 'longerIntervalAfter' | 'greaterInterval' | 'variables' | 'optOutKeywords';
  value: string;
}

/** Subjects of the CAMPAIGNS stream. */
export const CampaignSubjects = {
  /** a campaign was created, changed (status, progress) or deleted: `CampaignChangedEvent` */
  changed: (companyId: number, campaignId: number) => `campaign.changed.${companyId}.${campaignId}`,
  /** a contact list or its items changed, or an import moved on: `ContactListChangedEvent` */
  list: (companyId: number, contactListId: number) => `campaign.list.${companyId}.${contactListId}`,
  /**
   * The connection's campaign lane: consumed by the process holding the session (a durable of its own), sent at
   * once and one at a time in order (campaigns paced it before publishing). `CampaignSend`.
   */
  send: (companyId: number, connectionId: number) => `campaign.send.${companyId}.${connectionId}`,
  /** a campaign message left the connection (ack 1): the conversation shows it when the contact answers. `CampaignMessageSent` */
  sent: (companyId: number, connectionId: number) => `campaign.sent.${companyId}.${connectionId}`,
  allChanged: 'campaign.changed.>',
  allLists: 'campaign.list.>',
  allSends: 'campaign.send.>',
  allSent: 'campaign.sent.>',
} as const;

/** A campaign row's send (a message, or one file after it), with the WhatsApp id the row fixed. */
export interface CampaignSend {
  companyId: number;
  connectionId: number;
  campaignId: number;
  shippingId: number;
  /** fixed by the row and its part (campaignWaMessageId): a second publish is a duplicate the session drops */
  waMessageId: string;
  /** digits */
  to: string;
  body: string;
  media?: (WaMedia & { mediaType: 'image' | 'audio' | 'video' | 'application' }) | null;
}

export interface CampaignMessageSent {
  companyId: number;
  connectionId: number;
  campaignId: number;
  number: string;
  waMessageId: string;
  body: string;
  /** ms since the epoch */
  sentAt: number;
}

export type CampaignChangedEvent =
  | { companyId: number; action: 'create' | 'update'; record: CampaignDto; report?: CampaignReport; at: string }
  | { companyId: number; action: 'delete'; campaignId: number; at: string };

export type ContactListChangedEvent =
  | { companyId: number; contactListId: number; action: 'create' | 'update'; record: ContactListDto; at: string }
  | { companyId: number; contactListId: number; action: 'delete'; at: string }
  | { companyId: number; contactListId: number; action: 'item'; item: ContactListItemDto; at: string }
  | { companyId: number; contactListId: number; action: 'item-delete'; itemId: number; at: string }
  | { companyId: number; contactListId: number; action: 'items'; at: string }
  | { companyId: number; contactListId: number; action: 'import'; progress: ContactListImportProgress; at: string };

/** Socket channels of the campaign area (spec 02 §7 "Real-time channels"). */
export const CampaignChannels = {
  /** `{ action: 'create'|'update', record, report? }` or `{ action: 'delete', id }` */
  campaign: (companyId: number) => `company-${companyId}-campaign`,
  /** `{ action: 'create'|'update', record }`, `{ action: 'delete', id }`, `{ action: 'import', progress }` */
  contactList: (companyId: number) => `company-${companyId}-ContactList`,
  /** `{ action: 'create'|'update', record }`, `{ action: 'delete', id }`, `{ action: 'reload' }` (an import stored rows) */
  contactListItem: (companyId: number) => `company-${companyId}-ContactListItem`,
} as const;

/** The connection fields campaigns pace by (PUT /whatsapp/{id}; carried on WhatsappDto). */
export interface CampaignPaceFields {
  /** sends a day across the company's campaigns on this connection, in the company's time zone; 0: no cap */
  campaignDailyLimit: number;
  /** a new number's cap ramps up over its first weeks */
  campaignWarmup: boolean;
  /** 'HH:MM-HH:MM' in the company's time zone, or '' for any hour */
  campaignHours: string;
}

/**
 * The `checkMany` session command (sessionCommandSubject): which of these numbers are on WhatsApp, asked in one
 * query (Baileys' onWhatsApp takes many). At most NUMBER_CHECK_MANY_MAX numbers.
 */
export interface NumberCheckManyCommand {
  action: 'checkMany';
  numbers: string[];
}

export const NUMBER_CHECK_MANY_MAX = 100;

export interface NumberCheckManyResult {
  results: Array<{ number: string; exists: boolean; jid: string | null }>;
}

/**
 * tickets' internal answers campaigns asks for (service token): a tag's contacts, page by page
 * (`GET /internal/companies/{companyId}/tags/{tagId}/contacts?afterId=&limit=`, 404 when the tag is not the company's),
 * and a file list's files (`GET /internal/companies/{companyId}/file-lists/{id}`, 404 likewise).
 */
export interface TagAudiencePage {
  contacts: Array<{ id: number; name: string; number: string; email: string }>;
  /** the afterId of the next page, or null at the end */
  nextAfterId: number | null;
}

export interface FileListFiles {
  id: number;
  name: string;
  message: string;
  files: Array<{
    name: string;
    key: string;
    mimetype: string;
    fileName: string;
    size: number;
    mediaType: 'image' | 'audio' | 'video' | 'application';
  }>;
}
