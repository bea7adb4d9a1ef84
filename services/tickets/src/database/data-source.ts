import { createDataSource, type ServiceDatabaseOptions } from '@wa/database';
import { InitTickets1732240000000 } from './migrations/1732240000000-init-tickets.js';
import { TicketsCore1732240000001 } from './migrations/1732240000001-tickets-core.js';
import { StoreInboundFunction1732240000002 } from './migrations/1732240000002-store-inbound-function.js';
import { StoreInboundCachedPlans1732240000003 } from './migrations/1732240000003-store-inbound-cached-plans.js';
import { OutboxSetAside1732240000004 } from './migrations/1732240000004-outbox-set-aside.js';
import { TicketNotes1732240000005 } from './migrations/1732240000005-ticket-notes.js';
import { QuickMessages1732240000006 } from './migrations/1732240000006-quick-messages.js';
import { ContactsApi1732240000007 } from './migrations/1732240000007-contacts-api.js';
import { ContactsSortKey1732240000008 } from './migrations/1732240000008-contacts-sort-key.js';
import { Tags1732240000009 } from './migrations/1732240000009-tags.js';
import { MessageEdits1732240000010 } from './migrations/1732240000010-message-edits.js';
import { Schedules1732240000011 } from './migrations/1732240000011-schedules.js';
import { Dashboard1732240000012 } from './migrations/1732240000012-dashboard.js';
import { DashboardWait1732240000013 } from './migrations/1732240000013-dashboard-wait.js';
import { ApiRequests1732240000014 } from './migrations/1732240000014-api-requests.js';
import { Webhooks1732240000015 } from './migrations/1732240000015-webhooks.js';
import { MessageFailures1732240000016 } from './migrations/1732240000016-message-failures.js';
import { QueueOptions1732240000017 } from './migrations/1732240000017-queue-options.js';
import { QueueMedia1732240000018 } from './migrations/1732240000018-queue-media.js';
import { QueueIntegrations1732240000022 } from './migrations/1732240000022-queue-integrations.js';
import { Chats1732240000023 } from './migrations/1732240000023-chats.js';
import { FileLists1732240000024 } from './migrations/1732240000024-file-lists.js';
import { DeletedCompanies1732240000025 } from './migrations/1732240000025-deleted-companies.js';
import { Prompts1732240000021 } from './migrations/1732240000021-prompts.js';
import { Bot1732240000020 } from './migrations/1732240000020-bot.js';
import { QueueSchedules1732240000019 } from './migrations/1732240000019-queue-schedules.js';
import { StoreInboundGenericPlans1732240000026 } from './migrations/1732240000026-store-inbound-generic-plans.js';
import { MessagesRoomForUpdates1732240000027 } from './migrations/1732240000027-messages-room-for-updates.js';
import { StoreInboundLookupsPlanned1732240000028 } from './migrations/1732240000028-store-inbound-lookups-planned.js';
import { TrigramPendingListsShort1732240000029 } from './migrations/1732240000029-trigram-pending-lists-short.js';
import { ApiMessagesAndSealedSecrets1732240000030 } from './migrations/1732240000030-api-messages-and-sealed-secrets.js';
import { CompanyStandings1732240000032 } from './migrations/1732240000032-company-standings.js';
import { AnnounceKnownRefs1732240000034 } from './migrations/1732240000034-announce-known-refs.js';
import { StoreInboundWholeText1732240000035 } from './migrations/1732240000035-store-inbound-whole-text.js';
import { CampaignMessages1732240000036 } from './migrations/1732240000036-campaign-messages.js';
import { ContactProfilePictures1732240000038 } from './migrations/1732240000038-contact-profile-pictures.js';
import { ContactLids1732240000040 } from './migrations/1732240000040-contact-lids.js';
import { MessageContents1732240000045 } from './migrations/1732240000045-message-contents.js';
import { StoreInboundWritesLess1732240000046 } from './migrations/1732240000046-store-inbound-writes-less.js';
import { MessageSearchListLong1732240000047 } from './migrations/1732240000047-message-search-list-long.js';
import { entities } from './entities/index.js';

export const SCHEMA = 'tickets';
export const migrations = [
  InitTickets1732240000000,
  TicketsCore1732240000001,
  StoreInboundFunction1732240000002,
  StoreInboundCachedPlans1732240000003,
  OutboxSetAside1732240000004,
  TicketNotes1732240000005,
  QuickMessages1732240000006,
  ContactsApi1732240000007,
  ContactsSortKey1732240000008,
  Tags1732240000009,
  MessageEdits1732240000010,
  Schedules1732240000011,
  Dashboard1732240000012,
  DashboardWait1732240000013,
  ApiRequests1732240000014,
  Webhooks1732240000015,
  MessageFailures1732240000016,
  QueueOptions1732240000017,
  QueueMedia1732240000018,
  QueueSchedules1732240000019,
  Bot1732240000020,
  Prompts1732240000021,
  QueueIntegrations1732240000022,
  Chats1732240000023,
  FileLists1732240000024,
  DeletedCompanies1732240000025,
  StoreInboundGenericPlans1732240000026,
  MessagesRoomForUpdates1732240000027,
  StoreInboundLookupsPlanned1732240000028,
  TrigramPendingListsShort1732240000029,
  ApiMessagesAndSealedSecrets1732240000030,
  CompanyStandings1732240000032,
  AnnounceKnownRefs1732240000034,
  StoreInboundWholeText1732240000035,
  CampaignMessages1732240000036,
  ContactProfilePictures1732240000038,
  ContactLids1732240000040,
  MessageContents1732240000045,
  StoreInboundWritesLess1732240000046,
  MessageSearchListLong1732240000047,
];

export function ticketsDatabase(url: string, poolSize?: number): ServiceDatabaseOptions {
  return { url, schema: SCHEMA, entities, migrations, poolSize, applicationName: 'tickets' };
}

/** For the TypeORM CLI */
export default createDataSource(ticketsDatabase(process.env.DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/wa'));
