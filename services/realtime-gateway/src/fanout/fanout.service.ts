import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Streams } from '@wa/contracts';
import { EventBus, deleteDurable, type BusMessage, type ConsumerHandle } from '@wa/event-bus';
import { PeriodicTask, REDIS } from '@wa/server-kit';
import type { Redis } from 'ioredis';
import { AckPolicy, DeliverPolicy } from 'nats';
import { RealtimeEnv } from '../config/env.js';
import { ConnectionsConsumer, connectionsOrderKey } from './consumers/connections.consumer.js';
import { SessionReplacedConsumer } from './consumers/session-replaced.consumer.js';
import { TicketsConsumer, ticketsOrderKey } from './consumers/tickets.consumer.js';
import { UsersConsumer, USERS_FILTER } from './consumers/users.consumer.js';
import { AnnouncementsConsumer, ANNOUNCEMENTS_FILTER } from './consumers/announcements.consumer.js';
import { SettingsConsumer, SETTINGS_FILTER } from './consumers/settings.consumer.js';
import { COMPANIES_FILTER, HELPS_FILTER, PlatformListsConsumer, PLANS_FILTER } from './consumers/platform-lists.consumer.js';
import { CAMPAIGN_LISTS_FILTER, CampaignsConsumer, CAMPAIGNS_FILTER } from './consumers/campaigns.consumer.js';
import { PaymentsConsumer, PAYMENTS_FILTER } from './consumers/payments.consumer.js';
import type { Emission } from './emission.js';
import { FanoutLease } from './fanout-lease.js';
import { FanoutRelay } from './fanout-relay.js';

/** Every `Subjects.sessionReplaced(companyId, userId)`. */
export const SESSION_REPLACED_FILTER = 'auth.session.replaced.>';

interface Source {
  stream: string;
  filter?: string;
  /** appended to the durable's name: a second durable on the same stream (another filter) */
  durableSuffix?: string;
  orderKey?: (subject: string) => string;
  emissions: (msg: BusMessage<unknown>) => Emission[] | Promise<Emission[]>;
}

/**
 * Fan-out happens once: every replica may consume the same durable on TICKETS, CONNECTIONS, AUTH, BILLING and CAMPAIGNS,
 * so each event is handled by one replica, which emits to its sockets and, through FanoutRelay, to those of the others.
 * A lease lets one replica consume at a time, so that a ticket's or a connection's events go out in
 * the order they were published; when it stops or dies another one takes the lease and resumes where
 * the durable stands.
 */
@Injectable()
export class FanoutService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly log = new Logger(FanoutService.name);
  private readonly lease: FanoutLease;
  private handles: ConsumerHandle[] = [];
  /** sources whose stream its publisher has not declared yet (campaigns not started): tried again at each tick */
  private waiting: Source[] = [];
  private readonly toldWaiting = new Set<string>();
  /** renews the lease while consuming, or tries to take it: never two passes at once */
  private readonly ticker: PeriodicTask;
  private closing = false;

  constructor(
    private readonly bus: EventBus,
    private readonly env: RealtimeEnv,
    @Inject(REDIS) redis: Redis,
    private readonly relay: FanoutRelay,
    private readonly tickets: TicketsConsumer,
    private readonly connections: ConnectionsConsumer,
    private readonly sessions: SessionReplacedConsumer,
    private readonly users: UsersConsumer,
    private readonly announcements: AnnouncementsConsumer,
    private readonly settings: SettingsConsumer,
    private readonly platformLists: PlatformListsConsumer,
    private readonly campaigns: CampaignsConsumer,
    private readonly payments: PaymentsConsumer,
  ) {
    this.lease = new FanoutLease(redis, `rt:fanout-lease:${env.REALTIME_DURABLE}`, env.FANOUT_LEASE_MS);
    this.ticker = new PeriodicTask({
      name: 'fan-out lease',
      everyMs: Math.max(250, Math.floor(env.FANOUT_LEASE_MS / 3)),
      run: () => this.tick(),
    });
  }

  /** This replica consumes the events now. */
  get leading(): boolean {
    return this.handles.length > 0;
  }

  private sources(): Source[] {
    return [
      { stream: Streams.TICKETS.name, orderKey: ticketsOrderKey, emissions: (m) => this.tickets.emissions(m) },
      { stream: Streams.CONNECTIONS.name, orderKey: connectionsOrderKey, emissions: (m) => this.connections.emissions(m) },
      { stream: Streams.AUTH.name, filter: SESSION_REPLACED_FILTER, emissions: (m) => this.sessions.emissions(m) },
      // nats-server 2.9 has no multi-subject filter: user.* events have a durable of their own on AUTH
      { stream: Streams.AUTH.name, filter: USERS_FILTER, durableSuffix: '-users', emissions: (m) => this.users.emissions(m) },
      {
        stream: Streams.AUTH.name,
        filter: ANNOUNCEMENTS_FILTER,
        durableSuffix: '-announcements',
        emissions: (m) => this.announcements.emissions(m),
      },
      { stream: Streams.AUTH.name, filter: SETTINGS_FILTER, durableSuffix: '-settings', emissions: (m) => this.settings.emissions(m) },
      {
        stream: Streams.AUTH.name,
        filter: COMPANIES_FILTER,
        durableSuffix: '-companies',
        emissions: (m) => this.platformLists.companies(m),
      },
      { stream: Streams.AUTH.name, filter: HELPS_FILTER, durableSuffix: '-helps', emissions: (m) => this.platformLists.helps(m) },
      // a renewal applied (auth, on billing's invoice.paid): the checkout's CONCLUIDA
      { stream: Streams.AUTH.name, filter: PAYMENTS_FILTER, durableSuffix: '-payments', emissions: (m) => this.payments.emissions(m) },
      { stream: Streams.BILLING.name, filter: PLANS_FILTER, durableSuffix: '-plans', emissions: (m) => this.platformLists.plans(m) },
      // the campaign pages: not the sends nor the sent (campaign.send|sent.*), which are many and no screen's
      {
        stream: Streams.CAMPAIGNS.name,
        filter: CAMPAIGNS_FILTER,
        durableSuffix: '-campaigns',
        emissions: (m) => this.campaigns.campaigns(m),
      },
      {
        stream: Streams.CAMPAIGNS.name,
        filter: CAMPAIGN_LISTS_FILTER,
        durableSuffix: '-campaign-lists',
        emissions: (m) => this.campaigns.lists(m),
      },
    ];
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.ticker.runNow();
    this.ticker.start();
  }

  async onModuleDestroy(): Promise<void> {
    this.closing = true;
    await this.ticker.stop();
    await this.stopConsuming();
    await this.lease.release();
  }

  /** Renews the lease while consuming, or tries to take it. */
  private async tick(): Promise<void> {
    if (this.closing) return;
    try {
      if (this.leading) {
        if (!(await this.lease.renew())) {
          this.log.warn({ durable: this.env.REALTIME_DURABLE }, 'fan-out lease lost; stopping to consume');
          await this.stopConsuming();
        } else if (this.waiting.length) {
          await this.consume(this.waiting.splice(0));
        }
      } else if (await this.lease.acquire().catch(() => false)) {
        await this.startConsuming();
      }
    } catch (err) {
      this.log.error({ err: (err as Error)?.message }, 'fan-out could not start; retrying');
      await this.stopConsuming();
      await this.lease.release();
    }
  }

  private async startConsuming(): Promise<void> {
    this.tickets.leading();
    await this.consume(this.sources());
    this.log.log({ durable: this.env.REALTIME_DURABLE, holder: this.lease.holder }, 'fan-out: this replica consumes');
  }

  /**
   * Consumes each source; one whose stream is not declared yet waits for the next tick, so the other streams are
   * fanned out meanwhile (one service not started stops no other's live events).
   */
  private async consume(sources: Source[]): Promise<void> {
    const jsm = await this.bus.connection.jetstreamManager();
    for (const source of sources) {
      if (!(await jsm.streams.info(source.stream).catch(() => null))) {
        if (!this.toldWaiting.has(source.stream))
          this.log.warn({ stream: source.stream }, 'fan-out: stream not declared by its publisher yet; its events wait');
        this.toldWaiting.add(source.stream);
        this.waiting.push(source);
        continue;
      }
      await this.prepareDurable(source);
      this.handles.push(
        await this.bus.consume<unknown>({
          stream: source.stream,
          durable: this.durableOf(source),
          filterSubjects: source.filter ? [source.filter] : undefined,
          orderKey: source.orderKey,
          concurrency: 8,
          batchSize: 16,
          handler: (batch) => this.handle(source, batch),
        }),
      );
    }
  }

  private durableOf(source: Source): string {
    return `${this.env.REALTIME_DURABLE}${source.durableSuffix ?? ''}`;
  }

  private async stopConsuming(): Promise<void> {
    this.waiting = [];
    const handles = this.handles.splice(0);
    await Promise.all(handles.map((h) => h.stop()));
  }

  /**
   * Emits never fail the batch: a retry would emit its earlier events twice. What cannot be fanned out
   * (a malformed payload) is logged and acked. A batch's emissions reach every replica's sockets together
   * (FanoutRelay).
   */
  private async handle(source: Source, batch: BusMessage<unknown>[]): Promise<void> {
    const all: Emission[] = [];
    for (const msg of batch) {
      try {
        for (const e of await source.emissions(msg)) if (e.rooms.length) all.push(e);
      } catch (err) {
        this.log.error({ subject: msg.subject, seq: msg.streamSeq, err: (err as Error)?.message }, 'event not fanned out');
      }
    }
    this.relay.fanOut(all);
  }

  /**
   * Called by the replica that takes the lease, before it consumes. The first start of a deployment
   * begins at new events, not at the stream's history. A durable left idle longer than REPLAY_WINDOW_S
   * with events waiting (every replica was down, so every client was disconnected and reloads its lists
   * when it reconnects) is declared again from new events instead of replaying the whole backlog.
   * The bus keeps the other settings.
   */
  private async prepareDurable(source: Source): Promise<void> {
    const jsm = await this.bus.connection.jetstreamManager();
    const durable = this.durableOf(source);
    const windowMs = this.env.REPLAY_WINDOW_S * 1000;
    const info = await jsm.consumers.info(source.stream, durable).catch(() => null);
    if (info) {
      const lastActive = Math.max(
        ...[info.created, info.delivered.last_active, info.ack_floor.last_active].map((t) => Date.parse(String(t ?? '')) || 0),
      );
      const idleMs = Date.now() - lastActive;
      if (info.num_pending + info.num_ack_pending === 0 || idleMs <= windowMs) return;
      await deleteDurable(this.bus, source.stream, durable);
      this.log.warn(
        { stream: source.stream, durable, skipped: info.num_pending, idleMs, replayWindowS: this.env.REPLAY_WINDOW_S },
        'realtime durable idle longer than the replay window; its backlog is skipped',
      );
    }
    try {
      await jsm.consumers.add(source.stream, {
        durable_name: durable,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.New,
        filter_subject: source.filter,
      });
    } catch (err) {
      // declared meanwhile by the replica that held the lease a moment ago: fine. Missing: EventBus.consume
      // would declare it from the stream's start, so give up and try again at the next tick.
      if (!(await jsm.consumers.info(source.stream, durable).catch(() => null))) throw err;
    }
  }
}
