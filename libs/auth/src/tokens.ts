import type { AccessTokenClaims } from '@wa/contracts';
import type { Redis } from 'ioredis';
import jwt from 'jsonwebtoken';
import { LRUCache } from 'lru-cache';
import { createSecretKey, type KeyObject } from 'node:crypto';

/** Access tokens live at most 15 minutes. */
export const ACCESS_TOKEN_TTL_S = 15 * 60;
export const TOKEN_ISSUER = 'conversa';

const secretKeys = new Map<string, KeyObject>();

/**
 * The HMAC secret as a KeyObject, made once: given a string, jsonwebtoken first tries to read it as a
 * public key, which costs about a millisecond per call under OpenSSL 3 (and every hop verifies).
 */
export function secretKey(secret: string): KeyObject {
  let key = secretKeys.get(secret);
  if (!key) secretKeys.set(secret, (key = createSecretKey(Buffer.from(secret, 'utf8'))));
  return key;
}

export function signAccessToken(
  claims: Omit<AccessTokenClaims, 'iat' | 'exp' | 'iatMs'>,
  secret: string,
  ttlSeconds = ACCESS_TOKEN_TTL_S,
): string {
  return jwt.sign({ ...claims, iatMs: Date.now() }, secretKey(secret), {
    expiresIn: Math.min(ttlSeconds, ACCESS_TOKEN_TTL_S),
    issuer: TOKEN_ISSUER,
    algorithm: 'HS256',
  });
}

/**
 * Why a token is refused. `revoked`: its session ended or its user was deleted (sign in again); `stale`: its
 * user's profile changed after it was signed (refresh, and the new token carries the current rights).
 */
export type VerifyResult =
  { ok: true; claims: AccessTokenClaims } | { ok: false; reason: 'missing' | 'invalid' | 'expired' | 'revoked' | 'stale' };

/**
 * A revocation as it arrives (pushed by auth through Redis): a login session ended, a user deleted, a user's
 * tokens signed until `at` refused (profile changed), or a new version of a user's directory entry.
 */
export type RevocationNotice =
  | { kind: 'session'; sessionId: string; replaced: boolean }
  | { kind: 'user'; userId: number }
  | { kind: 'before'; userId: number; at: number }
  | { kind: 'version'; companyId: number; userId: number; at: number };

function noticeOf(key: string, at: number): RevocationNotice | undefined {
  const rest = key.slice(REVOKED_PREFIX.length);
  const colon = rest.indexOf(':');
  const kind = rest.slice(0, colon);
  const id = rest.slice(colon + 1);
  if (kind === 'sid') return { kind: 'session', sessionId: id, replaced: at === SESSION_REPLACED };
  if (kind === 'uver') {
    const [companyId, userId] = id.split('.').map(Number);
    return Number.isSafeInteger(companyId) && Number.isSafeInteger(userId) ? { kind: 'version', companyId, userId, at } : undefined;
  }
  const userId = Number(id);
  if (!Number.isSafeInteger(userId)) return undefined;
  if (kind === 'user') return { kind: 'user', userId };
  if (kind === 'before') return { kind: 'before', userId, at };
  return undefined;
}

/** What a revocation says of a token: `ended` (session or user gone), `stale` (rights changed since), or null. */
export type Revocation = 'ended' | 'stale' | null;

function isClaims(value: unknown): value is AccessTokenClaims {
  const v = value as AccessTokenClaims;
  return !!v && typeof v.id === 'number' && typeof v.companyId === 'number' && typeof v.profile === 'string' && typeof v.sid === 'string';
}

/**
 * Tokens whose signature was checked, per secret, until they expire. A client sends the same token with
 * every request for up to 15 minutes, and every hop checks it: the signature is checked once per process,
 * the expiry on each use. The key is the whole token, signature included, so only a token that verified
 * is ever found; revocation is checked on every request all the same (TokenRevocation).
 */
const VERIFIED_TOKENS_MAX = 20_000;
const verifiedTokens = new Map<string, LRUCache<string, AccessTokenClaims>>();

function verifiedCache(secret: string): LRUCache<string, AccessTokenClaims> {
  let cache = verifiedTokens.get(secret);
  if (!cache) verifiedTokens.set(secret, (cache = new LRUCache<string, AccessTokenClaims>({ max: VERIFIED_TOKENS_MAX })));
  return cache;
}

/** The claims of a token verified before under this secret, while it has not expired. */
export function verifiedClaims(token: string, secret: string): AccessTokenClaims | undefined {
  const cache = verifiedCache(secret);
  const claims = cache.get(token);
  if (!claims) return undefined;
  if ((claims.exp ?? 0) * 1000 > Date.now()) return claims;
  cache.delete(token);
  return undefined;
}

/** Remembers a token whose signature, issuer and expiry were just checked (by jsonwebtoken or passport-jwt). */
export function rememberVerified(token: string, secret: string, claims: AccessTokenClaims): void {
  // one frozen copy is handed to every later request with this token: none of them can change it for another
  if (isClaims(claims) && typeof claims.exp === 'number' && claims.exp * 1000 > Date.now())
    verifiedCache(secret).set(token, Object.freeze({ ...claims }));
}

/** Signature and expiry only (no I/O). */
export function decodeAccessToken(token: string | undefined, secret: string): VerifyResult {
  if (!token) return { ok: false, reason: 'missing' };
  const known = verifiedClaims(token, secret);
  if (known) return { ok: true, claims: known };
  try {
    const payload = jwt.verify(token, secretKey(secret), { issuer: TOKEN_ISSUER, algorithms: ['HS256'] });
    if (!isClaims(payload)) return { ok: false, reason: 'invalid' };
    rememberVerified(token, secret, payload);
    return { ok: true, claims: payload };
  } catch (err) {
    return { ok: false, reason: (err as Error).name === 'TokenExpiredError' ? 'expired' : 'invalid' };
  }
}

const REVOKED_PREFIX = 'auth:revoked:';
const userKey = (userId: number) => `${REVOKED_PREFIX}user:${userId}`;
const sessionKey = (sid: string) => `${REVOKED_PREFIX}sid:${sid}`;
/** the value of a session's key (and of its published notice) when a sign-in elsewhere ended it */
const SESSION_REPLACED = 2;
/** tokens of the user signed up to the key's value (ms) are refused; later ones pass */
const beforeKey = (userId: number) => `${REVOKED_PREFIX}before:${userId}`;
/** the version (ms) of the user's directory entry auth last wrote: a reader with an older copy waits for the watch */
const versionKey = (companyId: number, userId: number) => `${REVOKED_PREFIX}uver:${companyId}.${userId}`;
/** a published revocation: the key, and for a "before" key its instant (`key=ms`), for a replaced session's `key=2` */
const parseRevocation = (message: string): [string, number] => {
  const at = message.indexOf('=');
  return at < 0 ? [message, 0] : [message.slice(0, at), Number(message.slice(at + 1)) || 0];
};
const signedAtMs = (claims: AccessTokenClaims) => claims.iatMs ?? (claims.iat ?? 0) * 1000;
/**
 * Every revocation is also published (the key's name) on this channel, for the in-memory mirrors.
 * Pub/sub ignores Redis' database numbers, so the channel names the database the keys live in.
 */
export const revocationChannel = (redis: Redis) => `auth:revocations:${redis.options.db ?? 0}`;
const REVOCATION_TTL_S = ACCESS_TOKEN_TTL_S + 60;
const HEARTBEAT_MS = 250;
/** Past this without an answer from the subscription, checks ask Redis (and the mirror reconnects). */
const STALE_AFTER_MS = 1000;

/**
 * Tokens of deleted users and ended sessions are refused everywhere before they expire: auth writes
 * the revocation to Redis for the lifetime of an access token and publishes it; every hop checks it.
 *
 * A process that calls `mirror()` keeps the list in memory: it subscribes to the revocation channel,
 * then loads the keys already in Redis, and from then on answers from memory. Redis pushes a revocation
 * to the subscribers before it answers the revoking call, so it is in memory before any request made
 * after that call can arrive (a request is at least one more network round trip away). Until the
 * mirror is loaded, and whenever its subscription drops (then it reloads), every check asks Redis.
 * A subscription that breaks without a word (a half-open connection) is caught by a heartbeat: the
 * mirror answers only while its last PING came back within STALE_AFTER_MS, so a revocation it missed
 * can let a token through for at most that long.
 */
export class TokenRevocation {
  /** key → expiry (epoch ms), and for "before" keys the instant; bounded by the keys' TTL (15 min of revocations) */
  private readonly revoked = new Map<string, { until: number; at: number }>();
  private subscriber: Redis | undefined;
  private live = false;
  private loading: Promise<void> | undefined;
  /** when the subscription last answered a PING (or a SUBSCRIBE) */
  private answeredAt = 0;
  private heartbeat: NodeJS.Timeout | undefined;
  private readonly listeners = new Set<(notice: RevocationNotice) => void>();

  constructor(private readonly redis: Redis) {}

  /**
   * Calls `listener` with each revocation this process hears of from now on (needs `mirror()`): realtime
   * ends the sockets of an ended session, a deleted user, or tokens whose rights changed. Answers `off`.
   */
  onRevocation(listener: (notice: RevocationNotice) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private tell(key: string, at: number): void {
    if (this.listeners.size === 0) return;
    const notice = noticeOf(key, at);
    if (!notice) return;
    for (const listener of this.listeners) listener(notice);
  }

  async revokeUser(userId: number): Promise<void> {
    await this.revoke([[userKey(userId), 0]]);
  }

  /**
   * Ends login sessions. `replaced`: a sign-in elsewhere ended them, which the notice says, so that realtime
   * tells their sockets why (spec 01 §4) even when this notice outruns the bus's `sessionReplaced` event.
   */
  async revokeSessions(sessionIds: string[], why: 'ended' | 'replaced' = 'ended'): Promise<void> {
    const at = why === 'replaced' ? SESSION_REPLACED : 0;
    await this.revoke(sessionIds.map((sid) => [sessionKey(sid), at]));
  }

  /**
   * Refuses the user's tokens signed until now (a changed profile: the rights in them are stale); the next
   * refresh signs one with the current rights, which passes.
   */
  async revokeUserTokensBefore(userId: number, at = Date.now()): Promise<void> {
    await this.revoke([[beforeKey(userId), at]]);
  }

  /**
   * Says that the user's directory entry now has `version` (auth, once the entry is stored): pushed like a
   * revocation, so every mirror has it before any request made after this call arrives, and a reader whose
   * copy of the directory is older waits for it (DirectoryMirror.lookupAtLeast) instead of using it.
   */
  async announceUserVersion(companyId: number, userId: number, version: number): Promise<void> {
    await this.revoke([[versionKey(companyId, userId), version]]);
  }

  /** The latest directory version announced for the user (0: none lately). */
  async userVersion(companyId: number, userId: number): Promise<number> {
    const key = versionKey(companyId, userId);
    if (!this.mirrored) return Number(await this.redis.get(key)) || 0;
    return this.unexpired(key)?.at ?? 0;
  }

  private async revoke(entries: Array<[key: string, at: number]>): Promise<void> {
    if (entries.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const [key, at] of entries) {
      pipeline.set(key, String(at || 1), 'EX', REVOCATION_TTL_S).publish(revocationChannel(this.redis), at ? `${key}=${at}` : key);
    }
    const results = (await pipeline.exec()) ?? [];
    const failed = results.find(([err]) => err);
    if (failed) throw failed[0];
    if (this.subscriber) for (const [key, at] of entries) this.remember(key, REVOCATION_TTL_S * 1000, at);
  }

  async isRevoked(claims: AccessTokenClaims): Promise<boolean> {
    return (await this.revocationOf(claims)) !== null;
  }

  async revocationOf(claims: AccessTokenClaims): Promise<Revocation> {
    const keys = [userKey(claims.id), sessionKey(claims.sid), beforeKey(claims.id)] as const;
    if (!this.mirrored) {
      const [user, session, before] = await this.redis.mget(...keys);
      if (user !== null || session !== null) return 'ended';
      return before !== null && signedAtMs(claims) <= Number(before) ? 'stale' : null;
    }
    const [user, session, before] = keys.map((key) => this.unexpired(key));
    if (user || session) return 'ended';
    return before && signedAtMs(claims) <= before.at ? 'stale' : null;
  }

  /** A mirrored revocation that has not expired. */
  private unexpired(key: string): { until: number; at: number } | undefined {
    const entry = this.revoked.get(key);
    if (entry === undefined) return undefined;
    if (entry.until > Date.now()) return entry;
    this.revoked.delete(key);
    return undefined;
  }

  /** `true` while checks are answered from memory. */
  get mirrored(): boolean {
    return this.live && Date.now() - this.answeredAt <= STALE_AFTER_MS;
  }

  /** Starts the in-memory mirror (see the class); resolves once it is loaded. */
  async mirror(): Promise<void> {
    if (this.subscriber) return this.loading;
    const sub = this.redis.duplicate({ lazyConnect: true });
    this.subscriber = sub;
    sub.on('message', (_channel: string, message: string) => {
      const [key, at] = parseRevocation(message);
      if (!key.startsWith(REVOKED_PREFIX)) return;
      this.remember(key, REVOCATION_TTL_S * 1000, at);
      this.tell(key, at);
    });
    sub.on('error', () => undefined);
    for (const event of ['close', 'end', 'reconnecting']) sub.on(event, () => (this.live = false));
    // on every (re)connection: subscribe first, then load, so nothing revoked in between is missed
    sub.on('ready', () => void (this.loading = this.load(sub)));
    this.heartbeat = setInterval(() => this.beat(sub), HEARTBEAT_MS);
    this.heartbeat.unref();
    await sub.connect();
    await this.loading;
  }

  /** PINGs the subscription; one that stopped answering is made to reconnect, which reloads the list. */
  private beat(sub: Redis): void {
    this.sweep();
    if (sub.status !== 'ready') return;
    if (this.live && Date.now() - this.answeredAt > STALE_AFTER_MS) {
      this.live = false;
      sub.disconnect(true);
      return;
    }
    sub.ping().then(
      () => (this.answeredAt = Date.now()),
      () => undefined,
    );
  }

  private async load(sub: Redis): Promise<void> {
    try {
      await sub.subscribe(revocationChannel(this.redis));
      this.answeredAt = Date.now();
      let cursor = '0';
      do {
        const [next, keys] = await this.redis.scan(cursor, 'MATCH', `${REVOKED_PREFIX}*`, 'COUNT', 1000);
        cursor = next;
        if (keys.length === 0) continue;
        const answers = await this.redis
          .pipeline(
            keys.flatMap((k) => [
              ['pttl', k],
              ['get', k],
            ]),
          )
          .exec();
        keys.forEach((key, i) => {
          const ttl = Number(answers?.[2 * i]?.[1] ?? -2);
          if (ttl > 0) this.remember(key, ttl, Number(answers?.[2 * i + 1]?.[1] ?? 0) || 0);
        });
      } while (cursor !== '0');
      if (sub.status === 'ready') this.live = true;
    } catch {
      this.live = false;
    }
  }

  private sweptAt = Date.now();

  /** Drops expired revocations once a minute: the map holds at most the last ~16 minutes of them. */
  private sweep(): void {
    const now = Date.now();
    if (now - this.sweptAt < 60_000) return;
    this.sweptAt = now;
    for (const [key, entry] of this.revoked) if (entry.until <= now) this.revoked.delete(key);
  }

  private remember(key: string, ttlMs: number, at = 0): void {
    const known = this.revoked.get(key);
    this.revoked.set(key, { until: Date.now() + ttlMs, at: Math.max(at, known?.at ?? 0) });
  }

  /** Stops the mirror; checks ask Redis again. */
  async close(): Promise<void> {
    this.live = false;
    clearInterval(this.heartbeat);
    const sub = this.subscriber;
    this.subscriber = undefined;
    if (sub) sub.disconnect();
  }

  onApplicationShutdown(): Promise<void> {
    return this.close();
  }
}

/** Full check used by the gateway and by every service: signature, expiry, revocation. */
export async function verifyAccessToken(token: string | undefined, secret: string, revocation: TokenRevocation): Promise<VerifyResult> {
  const decoded = decodeAccessToken(token, secret);
  if (!decoded.ok) return decoded;
  const revoked = await revocation.revocationOf(decoded.claims);
  if (revoked) return { ok: false, reason: revoked === 'stale' ? 'stale' : 'revoked' };
  return decoded;
}

export function bearerToken(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  const [scheme, token] = value.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : undefined;
}
