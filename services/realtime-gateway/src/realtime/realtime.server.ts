import { Injectable, Logger, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { createAdapter } from '@socket.io/redis-adapter';
import { adapterParser } from './adapter-parser.js';
import { bearerToken, TokenRevocation, verifyAccessToken } from '@wa/auth';
import { liveGauge } from '@wa/server-kit';
import { Redis } from 'ioredis';
import type { Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import type { ExtendedError } from 'socket.io';
import { RealtimeEnv } from '../config/env.js';
import { ClientEvents } from './client-events.js';
import { corkBatches } from './cork-batches.js';
import { Membership } from './membership.js';
import type { RealtimeIo, RealtimeSocket } from './socket-types.js';

/** spec 01 §7 and §9: websocket only, ping interval and timeout 18000 ms. */
export const SOCKET_PATH = '/socket.io';
export const PING_INTERVAL_MS = 18_000;
export const PING_TIMEOUT_MS = 18_000;
/** Clients send only small events (ticket ids, statuses). */
const MAX_CLIENT_MESSAGE_BYTES = 16 * 1024;
const ADAPTER_READY_TIMEOUT_MS = 5_000;

/** Why a handshake was refused: the `connect_error` message, and its `data`. */
function refused(reason: 'missing' | 'invalid' | 'expired' | 'revoked' | 'stale'): ExtendedError {
  const err: ExtendedError = new Error(`token ${reason}`);
  err.data = { error: 'ERR_SESSION_EXPIRED', reason };
  return err;
}

/** The handshake token: `auth.token`, else `query.token`; a `Bearer ` prefix is accepted. */
export function handshakeToken(handshake: { auth?: Record<string, unknown>; query?: Record<string, unknown> }): string | undefined {
  const raw = handshake.auth?.token ?? handshake.query?.token;
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (typeof value !== 'string' || !value.trim()) return undefined;
  return bearerToken(value.trim()) ?? value.trim();
}

/**
 * The socket.io server on the service's own HTTP server (path /socket.io), with the Redis adapter
 * so that an emit of any replica reaches the sockets of every replica. A socket is let in only with
 * a valid token, and its rooms come from that token and the user directory.
 */

/** The sockets this replica holds now (read at each scrape): what an operator watches per replica, and alerts on. */
let liveServer: RealtimeIo | undefined;
liveGauge('realtime_connected_sockets', 'Sockets connected to this replica (signed in: a socket without a good token is refused)', () =>
  liveServer ? liveServer.of('/').sockets.size : 0,
);

@Injectable()
export class RealtimeServer implements OnModuleInit, BeforeApplicationShutdown {
  private readonly log = new Logger(RealtimeServer.name);
  private server: RealtimeIo | undefined;
  private pub: Redis | undefined;
  private sub: Redis | undefined;

  private stopRevocations: (() => void) | undefined;
  constructor(
    private readonly httpHost: HttpAdapterHost,
    private readonly env: RealtimeEnv,
    private readonly revocation: TokenRevocation,
    private readonly membership: Membership,
    private readonly clientEvents: ClientEvents,
  ) {}

  get io(): RealtimeIo {
    if (!this.server) throw new Error('socket.io server not started');
    return this.server;
  }

  async onModuleInit(): Promise<void> {
    const http = this.httpHost.httpAdapter.getHttpServer() as HttpServer;
    // publishes issued in one tick (a batch of events) leave in one write
    this.pub = new Redis(this.env.REDIS_URL, { connectionName: 'realtime-gateway:adapter-pub', enableAutoPipelining: true });
    this.sub = this.pub.duplicate({ connectionName: 'realtime-gateway:adapter-sub', enableAutoPipelining: false });
    for (const [role, client] of [
      ['pub', this.pub],
      ['sub', this.sub],
    ] as const) {
      client.on('error', (err: Error) => this.log.warn({ role, err: err.message }, 'socket.io adapter redis error'));
    }
    this.catchPublishFailures(this.pub);
    const io: RealtimeIo = new Server(http, {
      path: SOCKET_PATH,
      transports: ['websocket'],
      pingInterval: PING_INTERVAL_MS,
      pingTimeout: PING_TIMEOUT_MS,
      serveClient: false,
      maxHttpBufferSize: MAX_CLIENT_MESSAGE_BYTES,
      adapter: createAdapter(this.pub, this.sub, { key: this.env.SOCKET_ADAPTER_KEY, parser: adapterParser() }),
    });
    this.server = io;
    liveServer = io;
    io.use((socket, next) => {
      this.handshake(socket).then(
        () => next(),
        (err: unknown) => next(err instanceof Error ? err : new Error(String(err))),
      );
    });
    io.on('connection', (socket) => this.connected(socket));
    await this.adapterReady(this.sub);
    await this.membership.start();
    // access ended elsewhere (logout, user deleted, profile changed): this replica's sockets of it end now
    this.stopRevocations = this.revocation.onRevocation((notice) => this.membership.revoked(notice));
  }

  /**
   * The adapter drops the promise of its PUBLISH: one that fails (Redis gone, or an emit racing the
   * shutdown) would be an unhandled rejection, which ends the process. Such a failure is logged instead;
   * the local sockets got the event all the same, the other replicas' ones did not.
   */
  private catchPublishFailures(pub: Redis): void {
    const publish = pub.publish.bind(pub) as (...args: unknown[]) => Promise<number>;
    (pub as unknown as { publish: (...args: unknown[]) => Promise<number> }).publish = (...args: unknown[]) => {
      const sent = publish(...args);
      sent.catch((err: unknown) => this.log.warn({ err: (err as Error)?.message }, 'socket.io adapter publish failed'));
      return sent;
    };
  }

  /** The adapter subscribed in its constructor; a reply to a later command on the same connection means it is done. */
  private async adapterReady(sub: Redis): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        sub.ping(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('timeout')), ADAPTER_READY_TIMEOUT_MS);
        }),
      ]);
    } catch (err) {
      this.log.warn(
        { err: (err as Error).message },
        'socket.io adapter not subscribed yet; events of other replicas may be missed until it is',
      );
    } finally {
      clearTimeout(timer);
    }
  }

  private async handshake(socket: RealtimeSocket): Promise<void> {
    const token = handshakeToken(socket.handshake);
    const verified = await verifyAccessToken(token, this.env.JWT_SECRET, this.revocation);
    if (!verified.ok || !token) throw refused(verified.ok ? 'missing' : verified.reason);
    const { claims } = verified;
    const directorySeq = this.membership.seqOf(claims.companyId, claims.id);
    const visibility = await this.membership.read(claims.companyId, claims.id, claims);
    socket.data = {
      companyId: claims.companyId,
      userId: claims.id,
      sessionId: claims.sid,
      token,
      tokenSignedAt: claims.iatMs ?? (claims.iat ?? 0) * 1000,
      tokenExpiresAt: (claims.exp ?? 0) * 1000,
      visibility,
      permissionRooms: [],
      directorySeq,
      chatRooms: [],
      lastHeartbeatAt: 0,
      lookupWindowAt: 0,
      lookups: 0,
    };
  }

  /** One listener for every socket (EventEmitter calls it with the socket as `this`), not a closure per socket. */
  private readonly onDisconnect = ((server: RealtimeServer) =>
    function (this: RealtimeSocket): void {
      server.membership.unregister(this);
    })(this);

  private connected(socket: RealtimeSocket): void {
    corkBatches(socket.conn);
    socket.on('disconnect', this.onDisconnect);
    this.clientEvents.attach(socket);
    this.membership.register(socket);
  }

  /**
   * Before Nest closes the HTTP server: drop every client's transport (clients reconnect, to another
   * replica during a rollout), stop the directory watch, unsubscribe the adapter, close its clients.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopRevocations?.();
    this.membership.stop();
    const io = this.server;
    if (io) {
      io.engine.close();
      await Promise.resolve(io.of('/').adapter.close()).catch(() => undefined);
    }
    await Promise.all(
      [this.pub, this.sub].map(async (client) => {
        if (client && client.status !== 'end') await client.quit().catch(() => client.disconnect());
      }),
    );
  }
}
