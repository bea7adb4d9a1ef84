import { Module } from '@nestjs/common';
import { CommandHandler } from './command-handler.js';
import { CommandRouter } from './command-router.js';
import { InboundPublisher } from './inbound-publisher.js';
import { LidMap } from './lid-map.js';
import { LidMapRepository } from './lid-map.repository.js';
import { NotOnWhatsapp } from './not-on-whatsapp.js';
import { NotOnWhatsappRepository } from './not-on-whatsapp.repository.js';
import { NumberJids } from './number-jids.js';
import { NumberJidsRepository } from './number-jids.repository.js';
import { OutboundConsumer } from './outbound-consumer.js';
import { Placement } from './placement.js';
import { AuthStateRepository } from './providers/baileys/auth-state.repository.js';
import { AuthStateStore } from './providers/baileys/postgres-auth-state.js';
import { SentContents } from './providers/baileys/sent-contents.js';
import { SentContentsRepository } from './providers/baileys/sent-contents.repository.js';
import { ProviderFactory } from './providers/provider-factory.js';
import { SandboxCallsRepository } from './providers/sandbox/sandbox-calls.repository.js';
import { SandboxHeldRepository } from './providers/sandbox/sandbox-held.repository.js';
import { SandboxOutboxRepository } from './providers/sandbox/sandbox-outbox.repository.js';
import { SESSION_HOST } from './session-host.js';
import { ReplicaRegistry } from './replicas.js';
import { SessionLeases } from './session-leases.js';
import { SessionRunner } from './session-runner.js';
import { SessionRuntime } from './session-runtime.js';
import { SessionStats } from './session-stats.js';
import { SessionStore } from './session-store.repository.js';
import { UndecryptableMessages } from './undecryptable.js';
import { UndecryptableRepository } from './undecryptable.repository.js';

/**
 * The session runtime: where sessions run (placement, leases), running them (the runner, its providers, the
 * inbound and outbound paths) and their commands. Exports only its façade, SessionRuntime.
 */
@Module({
  providers: [
    SessionStore,
    SessionLeases,
    ReplicaRegistry,
    SessionStats,
    AuthStateRepository,
    AuthStateStore,
    SentContentsRepository,
    SentContents,
    SandboxOutboxRepository,
    SandboxCallsRepository,
    SandboxHeldRepository,
    ProviderFactory,
    NotOnWhatsappRepository,
    NotOnWhatsapp,
    NumberJidsRepository,
    NumberJids,
    LidMapRepository,
    LidMap,
    UndecryptableRepository,
    UndecryptableMessages,
    InboundPublisher,
    OutboundConsumer,
    SessionRunner,
    { provide: SESSION_HOST, useExisting: SessionRunner },
    Placement,
    CommandHandler,
    CommandRouter,
    SessionRuntime,
  ],
  exports: [SessionRuntime],
})
export class RuntimeModule {}
