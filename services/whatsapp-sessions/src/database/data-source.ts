import { createDataSource, type ServiceDatabaseOptions } from '@wa/database';
import { entities } from './entities/index.js';
import { InitWhatsappSessions1732240000000 } from './migrations/1732240000000-init-whatsapp.js';
import { ConnectionsSessions1732240000001 } from './migrations/1732240000001-connections-sessions.js';
import { WhatsappOutbox1732240000002 } from './migrations/1732240000002-outbox.js';
import { ConnectionTokenAtRest1732240000003 } from './migrations/1732240000003-connection-token-at-rest.js';
import { SandboxMedia1732240000004 } from './migrations/1732240000004-sandbox-media.js';
import { SandboxChanges1732240000005 } from './migrations/1732240000005-sandbox-changes.js';
import { SentMessagesRoomForUpdates1732240000006 } from './migrations/1732240000006-sent-messages-room-for-updates.js';
import { CompanyRefs1732240000007 } from './migrations/1732240000007-company-refs.js';
import { NotOnWhatsapp1732240000008 } from './migrations/1732240000008-not-on-whatsapp.js';
import { CampaignPace1732240000009 } from './migrations/1732240000009-campaign-pace.js';
import { NumberJids1732240000010 } from './migrations/1732240000010-number-jids.js';
import { SentContents1732240000011 } from './migrations/1732240000011-sent-contents.js';
import { UndecryptableMessages1732240000014 } from './migrations/1732240000014-undecryptable-messages.js';
import { LidMap1732240000012 } from './migrations/1732240000012-lid-map.js';
import { SessionEndReason1732240000017 } from './migrations/1732240000017-session-end-reason.js';
import { SandboxCalls1732240000013 } from './migrations/1732240000013-sandbox-calls.js';
import { SandboxHeldMessages1732240000018 } from './migrations/1732240000018-sandbox-held-messages.js';
import { SandboxOutboxOnce1732240000019 } from './migrations/1732240000019-sandbox-outbox-once.js';

export const SCHEMA = 'whatsapp';
export const migrations = [
  InitWhatsappSessions1732240000000,
  ConnectionsSessions1732240000001,
  WhatsappOutbox1732240000002,
  ConnectionTokenAtRest1732240000003,
  SandboxMedia1732240000004,
  SandboxChanges1732240000005,
  SentMessagesRoomForUpdates1732240000006,
  CompanyRefs1732240000007,
  NotOnWhatsapp1732240000008,
  CampaignPace1732240000009,
  NumberJids1732240000010,
  SentContents1732240000011,
  LidMap1732240000012,
  SandboxCalls1732240000013,
  UndecryptableMessages1732240000014,
  SessionEndReason1732240000017,
  SandboxHeldMessages1732240000018,
  SandboxOutboxOnce1732240000019,
];

export function whatsappDatabase(url: string, poolSize?: number): ServiceDatabaseOptions {
  return { url, schema: SCHEMA, entities, migrations, poolSize, applicationName: 'whatsapp-sessions' };
}

/** For the TypeORM CLI */
export default createDataSource(whatsappDatabase(process.env.DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/wa'));
