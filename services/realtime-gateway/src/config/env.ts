import { IsInt, IsString, Matches, Max, Min } from 'class-validator';
import { MessagingEnv } from '@wa/server-kit';

const URL_RULE = /^https?:\/\/[^/]+$/;

export class RealtimeEnv extends MessagingEnv {
  override PORT: number = 3106;

  /** tickets service: asked `GET /tickets/:id` (with the socket's token) when a chat box join needs a check */
  @Matches(URL_RULE, { message: 'TICKETS_URL must be an http(s) origin without a path' })
  TICKETS_URL: string = 'http://127.0.0.1:3102';

  /** Durable consumer shared by every replica on TICKETS, CONNECTIONS and AUTH: each event is fanned out once. */
  @Matches(/^[A-Za-z0-9_-]+$/, { message: 'REALTIME_DURABLE may hold letters, digits, - and _' })
  REALTIME_DURABLE: string = 'realtime';

  /** Prefix of the socket.io Redis adapter's channels; every replica of one deployment uses the same. */
  @IsString()
  @Matches(/^[A-Za-z0-9_.:-]+$/)
  SOCKET_ADAPTER_KEY: string = 'socket.io';

  /** How long a ticket's last known queue and owner (learned from ticket events) is kept for chat box checks. */
  @IsInt()
  @Min(60)
  @Max(30 * 86_400)
  TICKET_CACHE_TTL_S: number = 86_400;

  /** Sockets of a login session a sign-in elsewhere ended are disconnected this long after `sessionReplaced`, so the app can show it. */
  @IsInt()
  @Min(0)
  @Max(60_000)
  SESSION_ENDED_GRACE_MS: number = 2_000;

  /**
   * One replica at a time consumes the shared durable (a lease in Redis), so that one conversation's or
   * connection's events reach the clients in order; another replica takes over when the lease lapses.
   */
  @IsInt()
  @Min(1_000)
  @Max(120_000)
  FANOUT_LEASE_MS: number = 9_000;

  /**
   * A shared durable idle this long with events waiting (every replica was down, every client
   * disconnected and reloading its lists on reconnect) starts again at new events instead of
   * replaying its backlog to the sockets.
   */
  @IsInt()
  @Min(1)
  @Max(86_400)
  REPLAY_WINDOW_S: number = 300;
}
