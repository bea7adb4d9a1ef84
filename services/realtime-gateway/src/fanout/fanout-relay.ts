import { Injectable, Logger, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { PeriodicTask } from '@wa/server-kit';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { RealtimeEnv } from '../config/env.js';
import { RealtimeServer } from '../realtime/realtime.server.js';
import type { Emission } from './emission.js';

const NEWLINE = 0x0a;
/** How often a replica asks Redis whether another one listens on the channel. */
const OTHERS_CHECK_MS = 1000;

/**
 * How the fan-out's emits reach the sockets of every replica. The replica that consumes the events emits a
 * batch's emissions to its own sockets and publishes them to the others in one Redis message (on
 * `<SOCKET_ADAPTER_KEY>-fanout`, outside the adapter's channels), where each replica emits them to its own
 * sockets, in the order they were published. One message per batch of events, instead of one per emit
 * through the socket.io adapter (which a replica also reads back and drops). A replica's own messages are
 * recognised by the id they start with and left undecoded. A replica alone on the channel publishes nothing
 * (it asks Redis every OTHERS_CHECK_MS how many listen); one that starts says so on the channel before it
 * takes sockets, so the others publish again from then on.
 */
@Injectable()
export class FanoutRelay implements OnModuleInit, BeforeApplicationShutdown {
  private readonly log = new Logger(FanoutRelay.name);
  private readonly id = randomUUID();
  private readonly idBytes = Buffer.from(this.id);
  private readonly timers = new Set<NodeJS.Timeout>();
  private pub: Redis | undefined;
  private sub: Redis | undefined;
  private closing = false;
  /** another replica listens on the channel (the safe answer until Redis says otherwise) */
  private others = true;
  /** messages heard from other replicas: an answer of Redis asked before one of them is out of date */
  private heard = 0;
  private readonly checker = new PeriodicTask({ name: 'fan-out relay listeners', everyMs: OTHERS_CHECK_MS, run: () => this.checkOthers() });

  constructor(
    private readonly env: RealtimeEnv,
    private readonly server: RealtimeServer,
  ) {}

  get channel(): string {
    return `${this.env.SOCKET_ADAPTER_KEY}-fanout`;
  }

  async onModuleInit(): Promise<void> {
    // the batches of one tick leave in one write
    this.pub = new Redis(this.env.REDIS_URL, { connectionName: 'realtime-gateway:fanout-pub', enableAutoPipelining: true });
    this.sub = this.pub.duplicate({ connectionName: 'realtime-gateway:fanout-sub', enableAutoPipelining: false });
    for (const [role, client] of [
      ['pub', this.pub],
      ['sub', this.sub],
    ] as const) {
      client.on('error', (err: Error) => this.log.warn({ role, err: err.message }, 'fan-out relay redis error'));
    }
    this.sub.on('messageBuffer', (_channel: Buffer, raw: Buffer) => this.received(raw));
    // subscribed again after a reconnection: the others hear of this replica again
    this.sub.on('ready', () => void this.hello());
    await this.sub.subscribe(this.channel);
    await this.hello();
    await this.checker.runNow();
    this.checker.start();
  }

  /** Tells the replicas on the channel that this one listens: they publish to it from now on (an empty batch). */
  private async hello(): Promise<void> {
    if (this.closing) return;
    await this.pub
      ?.publish(this.channel, `${this.id}\n[]`)
      .catch((err: unknown) => this.log.warn({ err: (err as Error)?.message }, 'fan-out relay: hello not published'));
  }

  /** Does another replica listen on the channel? Kept as it was when Redis cannot say. */
  private async checkOthers(): Promise<void> {
    const pub = this.pub;
    if (!pub || this.closing) return;
    const heard = this.heard;
    try {
      const [, listening] = (await pub.pubsub('NUMSUB', this.channel)) as [string, number | string];
      if (this.heard === heard) this.others = Number(listening) > 1;
    } catch {
      // Redis away: publishing fails too until it is back
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.closing = true;
    await this.checker.stop();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await Promise.all(
      [this.pub, this.sub].map(async (client) => {
        if (client && client.status !== 'end') await client.quit().catch(() => client.disconnect());
      }),
    );
  }

  /** A batch's emissions: to this replica's sockets now, and to the other replicas' in one message. */
  fanOut(emissions: Emission[]): void {
    if (emissions.length === 0) return;
    for (const e of emissions) this.apply(e);
    const pub = this.pub;
    if (!pub || this.closing || !this.others) return;
    // the local sockets have them already; another replica's miss them while Redis is away (as with the adapter)
    pub
      .publish(this.channel, `${this.id}\n${JSON.stringify(emissions)}`)
      .catch((err: unknown) => this.log.warn({ err: (err as Error)?.message }, 'fan-out relay publish failed'));
  }

  private received(raw: Buffer): void {
    const cut = raw.indexOf(NEWLINE);
    if (cut < 0 || (cut === this.idBytes.length && raw.subarray(0, cut).equals(this.idBytes))) return;
    this.heard++;
    this.others = true;
    let emissions: Emission[];
    try {
      emissions = JSON.parse(raw.toString('utf8', cut + 1)) as Emission[];
      if (!Array.isArray(emissions)) throw new Error('not a list of emissions');
    } catch (err) {
      this.log.warn({ err: (err as Error)?.message }, 'fan-out relay message not understood; dropped');
      return;
    }
    for (const e of emissions) this.apply(e);
  }

  /** `io.to(rooms).except(except).emit(channel, payload)` to this replica's sockets, and their disconnect when asked. */
  private apply(e: Emission): void {
    if (!Array.isArray(e?.rooms) || e.rooms.length === 0 || this.closing) return;
    const io = this.server.io.local;
    const except = Array.isArray(e.except) && e.except.length > 0 ? e.except : undefined;
    (except ? io.to(e.rooms).except(except) : io.to(e.rooms)).emit(e.channel, e.payload);
    if (typeof e.disconnectAfterMs === 'number') {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        const local = this.server.io.local;
        (except ? local.in(e.rooms).except(except) : local.in(e.rooms)).disconnectSockets(true);
      }, e.disconnectAfterMs);
      timer.unref();
      this.timers.add(timer);
    }
  }
}
