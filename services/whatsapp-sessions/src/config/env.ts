import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import type { ConnectionProviderKind } from '@wa/contracts';
import { InfraEnv, Secret } from '@wa/server-kit';

const CHANNELS: ConnectionProviderKind[] = ['sandbox', 'baileys'];

export class WhatsappSessionsEnv extends InfraEnv {
  /** auth, asked for the company's plan counts when a connection or queue is created */
  @IsString()
  AUTH_URL: string = 'http://127.0.0.1:3101';

  override PORT: number = 3103;

  /**
   * Tries of an outbound send (back-off 0.5, 1, 2, 5, then 10 s) before it is given up: the message is then
   * marked failed with the reason (tickets, the public API, webhooks), never dropped unseen.
   */
  @IsInt()
  @Min(1)
  @Max(50)
  OUTBOUND_MAX_ATTEMPTS: number = 8;

  /**
   * Lanes of a connection's sends: a chat's sends always share one, in order; different chats are spread
   * over them, so a batch waiting for PostgreSQL holds back only the chats of its lane.
   */
  @IsInt()
  @Min(1)
  @Max(32)
  OUTBOUND_LANES: number = 4;

  /**
   * Channel of a connection created without one. `sandbox` here: WhatsApp itself cannot be reached
   * from this machine, so a Baileys session would never pair.
   */
  @IsIn(CHANNELS)
  DEFAULT_CHANNEL: ConnectionProviderKind = 'sandbox';

  /**
   * The sandbox channel (a stand-in phone anyone with an admin account can make speak for its connection) is a
   * development tool: with NODE_ENV=production it is refused on connections, and its inbound, outbox and
   * leave routes answer 404, unless this is `enabled` (a demo platform). Elsewhere it is always on.
   */
  @IsIn(['', 'enabled', 'disabled'], { message: 'SANDBOX_CHANNEL must be enabled or disabled' })
  SANDBOX_CHANNEL: string = '';

  /** A company made by sign-up gets a sandbox connection (demos, trials); off: it starts with none. */
  @IsBoolean()
  SANDBOX_FOR_NEW_COMPANIES: boolean = false;

  /**
   * Encrypts the connections' API tokens at rest (AES-256-GCM; the admins' form shows them, so they are
   * kept recoverable) and keys their lookup hash. Required in production; elsewhere derived from JWT_SECRET.
   */
  @Secret({ requiredInProduction: true })
  @IsOptional()
  @IsString()
  CONNECTION_TOKEN_KEY?: string;

  /**
   * This replica's name: who holds its session leases, shown to operators (`whatsapp-sessions-0` …; in Kubernetes
   * the pod's name); empty: `<hostname>:<pid>:<random>`. Unique among the replicas running at once.
   */
  @IsString()
  @MaxLength(200)
  SESSION_OWNER_ID: string = '';

  /** A lease not renewed within this time is free for another process (after a crash). */
  @IsInt()
  @Min(1000)
  SESSION_LEASE_TTL_MS: number = 30_000;

  /** How often the holder renews its leases (well below the TTL). */
  @IsInt()
  @Min(100)
  SESSION_LEASE_RENEW_MS: number = 10_000;

  /** How often the process looks for sessions nobody holds (boot, takeover after a crash or a shutdown) or to hand back. */
  @IsInt()
  @Min(100)
  SESSION_CLAIM_INTERVAL_MS: number = 2_000;

  /** A free session is taken at once by the replica it prefers, by any other after this long (its preferred one is full). */
  @IsInt()
  @Min(0)
  SESSION_CLAIM_GRACE_MS: number = 10_000;

  /** Sessions a replica starts side by side when it takes many at once (boot, a dead replica's). */
  @IsInt()
  @Min(1)
  SESSION_START_CONCURRENCY: number = 8;

  /** Sessions a replica hands back per round to the replica they now prefer (one joined): a few at a time. */
  @IsInt()
  @Min(1)
  SESSION_HANDBACK_BATCH: number = 5;

  /** Sessions a drained replica hands over per round (SESSION_CLAIM_INTERVAL_MS); shutting down hands over all at once. */
  @IsInt()
  @Min(1)
  SESSION_DRAIN_BATCH: number = 25;

  /** How often a replica announces itself (capacity, load, draining) and reads the others. */
  @IsInt()
  @Min(100)
  REPLICA_HEARTBEAT_MS: number = 2_000;

  /**
   * A replica not heard of within this time is dead: its sessions are free for the others at once (failover within
   * REPLICA_TTL_MS + SESSION_CLAIM_INTERVAL_MS + the time to connect).
   */
  @IsInt()
  @Min(500)
  REPLICA_TTL_MS: number = 10_000;

  /**
   * Upper bound of sessions one process holds; the rest are left to other processes. 400 fits the shipped 1 GiB limit
   * with room to spare (bench/sessions-memory: a replica peaks at ~390 MiB + ~0.55 MiB a Baileys socket still
   * connecting, ~0.45 MiB a sandbox session: 611 MiB measured at 400); the rest is for what a paired session holds on top
   * (its signal sessions, app-state, contacts: unmeasurable without WhatsApp) and for bursts (a newly linked phone's
   * history sync, an offline backlog decrypted at reconnect, a failover starting many sessions at once). Raise it with
   * the limit.
   */
  @IsInt()
  @Min(1)
  SESSION_MAX_PER_PROCESS: number = 400;

  /**
   * Comma-separated company ids whose sessions this process picks up on its own (boot, takeover);
   * empty: every company. Lets a pool of processes be dedicated to some tenants.
   */
  @Matches(/^$|^\d+(,\d+)*$/, { message: 'SESSION_COMPANY_IDS must be a comma-separated list of company ids' })
  SESSION_COMPANY_IDS: string = '';

  /**
   * A dropped Baileys session (not logged out) reconnects for as long as it takes: the first try within
   * this delay, each next one within twice the last, up to BAILEYS_RECONNECT_MAX_MS (with jitter), for
   * BAILEYS_RECONNECT_FAST_TRIES tries; then one every BAILEYS_RECONNECT_SLOW_MS, without end.
   */
  @IsInt()
  @Min(1)
  @Max(60_000)
  BAILEYS_RECONNECT_BASE_MS: number = 1000;

  /** The longest pause between two reconnect attempts of a dropped Baileys session. */
  @IsInt()
  @Min(1)
  @Max(3_600_000)
  BAILEYS_RECONNECT_MAX_MS: number = 60_000;

  /** Reconnect tries of a dropped session backed off up to BAILEYS_RECONNECT_MAX_MS before they slow down to BAILEYS_RECONNECT_SLOW_MS. */
  @IsInt()
  @Min(1)
  @Max(1000)
  BAILEYS_RECONNECT_FAST_TRIES: number = 10;

  /** The pause between reconnect tries once the fast ones are spent (jittered down to half), for as long as it takes. */
  @IsInt()
  @Min(1)
  @Max(3_600_000)
  BAILEYS_RECONNECT_SLOW_MS: number = 300_000;

  /** WhatsApp's 500 (bad session) retried this many times (back-off as a drop) before the pairing is forgotten. */
  @IsInt()
  @Min(0)
  @Max(20)
  BAILEYS_BAD_SESSION_RETRIES: number = 3;

  /**
   * A 401 (logged out) this soon after a 515 (restart required) that reopened the session is a known false
   * logout: the session restarts (logged) instead of forgetting its pairing.
   */
  @IsInt()
  @Min(0)
  @Max(120_000)
  BAILEYS_FALSE_LOGOUT_WINDOW_MS: number = 10_000;

  /** QR codes shown without being scanned before a Baileys session gives up (DISCONNECTED). */
  @IsInt()
  @Min(1)
  BAILEYS_MAX_QR: number = 5;

  /**
   * Signal keys (sessions with contacts' devices, pre-keys, sender keys…) a Baileys session keeps in memory, the least
   * recently used dropped first: one dropped is read again from PostgreSQL when needed. Baileys' own cache keeps every
   * key it meets for 5 minutes, without a bound.
   */
  @IsInt()
  @Min(16)
  @Max(100_000)
  BAILEYS_KEY_CACHE_MAX: number = 256;

  /** How long a signal key read or written stays in a Baileys session's memory at most (Baileys' own: 5 minutes). */
  @IsInt()
  @Min(1000)
  @Max(24 * 60 * 60_000)
  BAILEYS_KEY_CACHE_TTL_MS: number = 5 * 60_000;

  /**
   * Entries of each of a Baileys socket's other caches (message retry counters, contacts' device lists, placeholder
   * resends, call offers; Baileys' lifetimes), the least recently used dropped first. Baileys' own are unbounded.
   */
  @IsInt()
  @Min(16)
  @Max(100_000)
  BAILEYS_SOCKET_CACHE_MAX: number = 256;

  /**
   * WhatsApp's WebSocket address for Baileys; empty: Baileys' own (`wss://web.whatsapp.com/ws/chat`). Another only
   * for a bench or a test peer (bench/sessions-memory): nothing else speaks WhatsApp's protocol.
   */
  @Matches(/^$|^wss?:\/\/\S+$/, { message: 'BAILEYS_WS_URL must be empty or a ws:// or wss:// address' })
  BAILEYS_WS_URL: string = '';

  /**
   * How long what a Baileys session sent is kept (its WhatsApp content, in PostgreSQL) to answer a contact who
   * could not decrypt it and asks for it again (a retry receipt); then it is forgotten.
   */
  @IsInt()
  @Min(60_000)
  @Max(7 * 24 * 60 * 60_000)
  SENT_MESSAGE_RETRY_WINDOW_MS: number = 24 * 60 * 60_000;

  /**
   * History sync (what WhatsApp hands a newly linked session, Baileys' `messaging-history.set`): its messages sent
   * within this many hours before they arrive are imported into the conversations' open tickets (no bot, no new
   * ticket); older ones are dropped (counted). 0 imports none; contacts and LID pairs are kept whatever their age.
   */
  @IsInt()
  @Min(0)
  @Max(24 * 90)
  HISTORY_IMPORT_HOURS: number = 24;

  /**
   * Status changes of the sends of every session this process runs, gathered this long and written together (one
   * statement for them all, one `wa.ack` event per connection; a message's changes within it as its highest): see
   * runtime/ack-window.ts. 0: each as WhatsApp tells it.
   */
  @IsInt()
  @Min(0)
  @Max(1000)
  ACK_WINDOW_MS: number = 20;

  /** Pause between the sandbox's acks of a sent message (1 at once, then 2, 3, 4). */
  @IsInt()
  @Min(0)
  @Max(5000)
  SANDBOX_ACK_STEP_MS: number = 200;
}

/** Whether sandbox connections may be made and their test hooks answer (SANDBOX_CHANNEL). */
export function sandboxAllowed(env: WhatsappSessionsEnv): boolean {
  if (env.SANDBOX_CHANNEL === 'enabled') return true;
  if (env.SANDBOX_CHANNEL === 'disabled') return false;
  return env.NODE_ENV !== 'production';
}

/** The channel of a connection created without one: DEFAULT_CHANNEL, or baileys when the sandbox is off. */
export function defaultChannel(env: WhatsappSessionsEnv): ConnectionProviderKind {
  return env.DEFAULT_CHANNEL === 'sandbox' && !sandboxAllowed(env) ? 'baileys' : env.DEFAULT_CHANNEL;
}

/** SESSION_COMPANY_IDS as a set; undefined means every company. */
export function companyScope(env: WhatsappSessionsEnv): Set<number> | undefined {
  if (!env.SESSION_COMPANY_IDS) return undefined;
  return new Set(env.SESSION_COMPANY_IDS.split(',').map(Number));
}
