import {
  makeCacheableSignalKeyStore,
  type PossiblyExtendedCacheStore,
  type SignalKeyStore,
  type UserFacingSocketConfig,
} from '@whiskeysockets/baileys';
import type { WhatsappSessionsEnv } from '../../../config/env.js';

/** What bounds a Baileys socket's memory (env: BAILEYS_KEY_CACHE_MAX, BAILEYS_KEY_CACHE_TTL_MS, BAILEYS_SOCKET_CACHE_MAX, BAILEYS_WS_URL). */
export interface BaileysSocketLimits {
  /** signal keys a socket keeps in memory (read through to PostgreSQL beyond) */
  keyCacheMax: number;
  keyCacheTtlMs: number;
  /** entries of each of the socket's other caches (retry counters, device lists, placeholder resends, call offers) */
  socketCacheMax: number;
  /** WhatsApp's WebSocket address; empty: Baileys' own (a bench points it at a local peer) */
  wsUrl: string;
}

export const DEFAULT_SOCKET_LIMITS: BaileysSocketLimits = { keyCacheMax: 256, keyCacheTtlMs: 5 * 60_000, socketCacheMax: 256, wsUrl: '' };

/** Baileys' own lifetimes of its socket caches (Defaults' DEFAULT_CACHE_TTLS), kept. */
const HOUR_MS = 60 * 60_000;
const FIVE_MIN_MS = 5 * 60_000;

/**
 * A cache of at most `max` entries, each kept `ttlMs` at most, for Baileys (its CacheStore): the least recently used
 * entry goes first. Baileys' default caches (NodeCache) only expire entries, so a socket's grow with every contact it
 * meets within their lifetime, and they run a timer until closed: the signal-key cache is never closed (each reconnect
 * left one behind, with its keys). This one is a Map: no timer, no memory set aside up front (lru-cache reserves
 * arrays of `max` slots, about 10 kB per cache at 256 before any entry, five caches a session), gone with its socket.
 */
export class BoundedCache implements PossiblyExtendedCacheStore {
  /** in use order: the first is the least recently used */
  private readonly entries = new Map<string, { value: unknown; until: number }>();

  constructor(
    readonly max: number,
    readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get<T>(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.until <= this.now()) return undefined;
    this.entries.set(key, entry);
    return entry.value as T;
  }

  set<T>(key: string, value: T): void {
    this.entries.delete(key);
    this.entries.set(key, { value, until: this.now() + this.ttlMs });
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.max) break;
      this.entries.delete(oldest);
    }
  }

  del(key: string): void {
    this.entries.delete(key);
  }

  flushAll(): void {
    this.entries.clear();
  }

  async mget<T>(keys: string[]): Promise<Record<string, T | undefined>> {
    return Object.fromEntries(keys.map((k) => [k, this.get<T>(k)]));
  }

  mset<T>(entries: Array<{ key: string; value: T }>): void {
    for (const { key, value } of entries) this.set(key, value);
  }

  mdel(keys: string[]): void {
    for (const key of keys) this.del(key);
  }
}

/**
 * The signal key store a socket uses: Baileys' cacheable store over the keys in PostgreSQL, its cache bounded. A key
 * evicted is read again from PostgreSQL when next needed (every write goes there first-hand: the cache only saves reads).
 */
export function boundedKeyStore(
  keys: SignalKeyStore,
  logger: UserFacingSocketConfig['logger'],
  limits: BaileysSocketLimits,
): { store: SignalKeyStore; cache: BoundedCache } {
  const cache = new BoundedCache(limits.keyCacheMax, limits.keyCacheTtlMs);
  return { store: makeCacheableSignalKeyStore(keys, logger, cache), cache };
}

/**
 * A socket's own caches, bounded, with Baileys' lifetimes (it would make them unbounded). Not given, on purpose:
 * `mediaCache` (Baileys keeps no uploaded media without one) and `cachedGroupMetadata` (its default keeps nothing and
 * asks WhatsApp for a group's members on each send to it).
 */
export function boundedSocketCaches(
  limits: BaileysSocketLimits,
): Required<Pick<UserFacingSocketConfig, 'msgRetryCounterCache' | 'userDevicesCache' | 'placeholderResendCache' | 'callOfferCache'>> {
  return {
    msgRetryCounterCache: new BoundedCache(limits.socketCacheMax, HOUR_MS),
    userDevicesCache: new BoundedCache(limits.socketCacheMax, FIVE_MIN_MS),
    placeholderResendCache: new BoundedCache(limits.socketCacheMax, HOUR_MS),
    callOfferCache: new BoundedCache(limits.socketCacheMax, FIVE_MIN_MS),
  };
}

/** The limits as configured. */
export function socketLimitsOf(env: WhatsappSessionsEnv): BaileysSocketLimits {
  return {
    keyCacheMax: env.BAILEYS_KEY_CACHE_MAX,
    keyCacheTtlMs: env.BAILEYS_KEY_CACHE_TTL_MS,
    socketCacheMax: env.BAILEYS_SOCKET_CACHE_MAX,
    wsUrl: env.BAILEYS_WS_URL,
  };
}
