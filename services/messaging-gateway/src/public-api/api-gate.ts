import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { assertPlanAllows, NO_PLAN_PERMISSION, planRefusal, signApiIdentity, signServiceToken } from '@wa/auth';
import { PLAN_EPOCH_ALL, planEpochKey, type ApiTokenOwner, type CompanyApiAccess, type PlanFlags } from '@wa/contracts';
import { DomainError, REDIS } from '@wa/server-kit';
import type { Redis } from 'ioredis';
import { GatewayEnv } from '../config/env.js';
import { UpstreamPool } from '../routing/upstream-pool.js';

/** How long an answer of whatsapp-sessions or auth is reused: a changed token or plan takes effect within it. */
const OWNER_TTL_MS = 30_000;
/** An unknown token's answer is reused briefly: a flood of bad tokens does not reach whatsapp-sessions. */
const UNKNOWN_TTL_MS = 5_000;
const CACHE_MAX = 10_000;

/** The plan gate's text (spec 02 §8: a plan-gated page without permission), for the public API and every plan-gated route. */
export const NO_API_PERMISSION = NO_PLAN_PERMISSION;

/**
 * Pacing per connection (GCRA): each accepted send gets the next free slot of its connection, one every
 * `interval` ms; a slot up to `bound` ms ahead is accepted (the burst is queued and sent at the pace), a
 * later one is refused with the wait until it would fit. Answers [accepted 1|0, slot ms, retry-after ms].
 */
const PACE = `
local now = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local bound = tonumber(ARGV[3])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
local slot = math.max(now, tat)
if slot - now > bound then
  return {0, slot, slot - now - bound}
end
redis.call('SET', KEYS[1], tostring(slot + interval), 'PX', math.ceil(slot + interval - now + 1000))
return {1, slot, 0}
`;

/**
 * One more token tried from an address this minute (counted before the token is looked up, so a parallel
 * burst gets no more than the limit through). Answers [tries this minute, ms until the minute is over].
 */
const TRY_TOKEN = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) ttl = tonumber(ARGV[1]) end
return {n, ttl}
`;
const TOKEN_WINDOW_MS = 60_000;

interface Cached<T> {
  value: T;
  until: number;
}

/**
 * The public messages API's door at the gateway: the bearer must be a connection's API token (asked of
 * whatsapp-sessions, which keeps tokens), its company active and on a plan with useExternalApi (asked of
 * auth), and a send must fit its connection's pace. What passes goes to tickets with a short signed identity
 * (company, connection and the send's slot) in place of the connection's token, which tickets verifies.
 */
@Injectable()
export class ApiGate {
  private readonly owners = new Map<string, Cached<ApiTokenOwner | null>>();
  private readonly access = new Map<number, Cached<CompanyApiAccess>>();
  /** whatsapp-sessions' replicas (resolving API tokens) */
  private readonly sessions: UpstreamPool;
  /** the plan gate's: each company's plan with the epochs it was asked under */
  private readonly plans = new Map<number, Cached<{ access: CompanyApiAccess; epochs: string }>>();

  constructor(
    private readonly env: GatewayEnv,
    @Inject(REDIS) private readonly redis: Redis,
  ) {
    this.sessions = new UpstreamPool(env.WHATSAPP_SESSIONS_URL);
  }

  /**
   * The identity to forward for this bearer; throws 401, 403 or 429 (with `retryAfterS`). `address` is the
   * client's: past API_BAD_TOKENS_PER_MINUTE wrong tokens from it this minute, a token this replica does not
   * already know as good answers 429 without being looked up (a guesser learns nothing more).
   */
  async admit(bearer: string | undefined, pacedSend: boolean, address: string): Promise<{ identity: string }> {
    if (!bearer) throw new DomainError('ERR_UNAUTHENTICATED', {}, 'A connection API token is required (Authorization: Bearer <token>).');
    const owner = await this.checkedOwner(bearer, address);
    if (!owner) throw new DomainError('ERR_UNAUTHENTICATED', {}, 'This token is not a connection API token.');
    const access = await this.companyAccess(owner.companyId);
    // the one plan check (planRefusal, @wa/auth); the API says 401 for a company that may not work at all
    const refused = planRefusal(
      { active: access.active, plan: access.plan ?? ({ useExternalApi: access.useExternalApi } as never) },
      'useExternalApi',
    );
    if (refused === 'inactive')
      throw new DomainError('ERR_UNAUTHENTICATED', {}, 'This company is disabled or its subscription has expired.');
    if (refused) throw new DomainError('ERR_NO_PERMISSION', {}, NO_API_PERMISSION);
    const pace = pacedSend ? await this.pace(owner.connectionId) : undefined;
    return {
      identity: signApiIdentity(
        { companyId: owner.companyId, connectionId: owner.connectionId, ...(pace ? { pace } : {}) },
        this.env.JWT_SECRET,
      ),
    };
  }

  /**
   * The plan gate of a route (spec 02 §6): the caller's company must be active and on a plan with `flag`,
   * else 403 with the spec's text (the one check, assertPlanAllows). Super users pass. The company's plan is asked of auth and kept PLAN_CACHE_MS at most.
   */
  async assertPlan(claims: { companyId: number; super: boolean }, flag: keyof PlanFlags): Promise<void> {
    if (claims.super) return;
    const access = await this.planOf(claims.companyId);
    assertPlanAllows({ active: access.active, plan: access.plan }, flag);
  }

  /**
   * A company's plan for the gate: reused while the plan epochs (Redis, raised by auth after a change) are what
   * they were when auth was asked, and for PLAN_CACHE_MS at most; asked of auth otherwise. One Redis read per
   * gated request instead of a call to auth; a Redis that cannot be read makes the gate ask auth.
   */
  private async planOf(companyId: number): Promise<CompanyApiAccess> {
    const epochs = await this.redis
      .mget(planEpochKey(companyId), PLAN_EPOCH_ALL)
      .then(([company, all]) => `${company ?? 0}:${all ?? 0}`)
      .catch(() => null);
    const hit = this.plans.get(companyId);
    if (epochs !== null && hit && hit.until > Date.now() && hit.value.epochs === epochs) return hit.value.access;
    const access = await this.fetchAccess(companyId);
    if (epochs !== null && this.env.PLAN_CACHE_MS > 0) remember(this.plans, companyId, { access, epochs }, this.env.PLAN_CACHE_MS);
    return access;
  }

  /** The send's slot (ms) and the pace's interval, or 429 with Retry-After when the connection's queue is full. */
  private async pace(connectionId: number): Promise<{ notBefore: number; intervalMs: number }> {
    const interval = Math.ceil(60_000 / this.env.API_SENDS_PER_MINUTE);
    const bound = interval * this.env.API_QUEUE_MAX;
    const [ok, slot, wait] = (await this.redis.eval(PACE, 1, `api:pace:${connectionId}`, Date.now(), interval, bound)) as [
      number,
      number,
      number,
    ];
    if (ok !== 1) {
      const retryAfter = Math.max(1, Math.ceil(wait / 1000));
      throw new DomainError(
        'ERR_TOO_MANY_ATTEMPTS',
        { retryAfter },
        `Too many messages queued for this connection; try again in ${retryAfter} s.`,
      );
    }
    return { notBefore: slot, intervalMs: interval };
  }

  /**
   * The token's owner, each try of a token not known here as good counted against the address first (and
   * given back when it was good): a known good token is never held up by its neighbours' guesses.
   */
  private async checkedOwner(bearer: string, address: string): Promise<ApiTokenOwner | null> {
    const known = this.owners.get(tokenKey(bearer));
    if (known && known.value && known.until > Date.now()) return known.value;
    const key = `api:token-tries:${addressBucket(address)}`;
    const [tries, ttl] = (await this.redis.eval(TRY_TOKEN, 1, key, TOKEN_WINDOW_MS)) as [number, number];
    if (tries > this.env.API_BAD_TOKENS_PER_MINUTE) {
      const retryAfter = Math.max(1, Math.ceil(ttl / 1000));
      throw new DomainError(
        'ERR_TOO_MANY_ATTEMPTS',
        { retryAfter },
        `Too many wrong API tokens from this address; try again in ${retryAfter} s.`,
      );
    }
    const owner = await this.owner(bearer);
    if (owner) await this.redis.decr(key).catch(() => undefined);
    return owner;
  }

  private async owner(bearer: string): Promise<ApiTokenOwner | null> {
    const key = tokenKey(bearer);
    const hit = this.owners.get(key);
    if (hit && hit.until > Date.now()) return hit.value;
    const res = await this.ask(`${this.sessions.pick()}/internal/api-tokens/resolve`, 'POST', { token: bearer });
    const value =
      res.status === 200
        ? ((await res.json()) as ApiTokenOwner)
        : res.status === 401 || res.status === 400
          ? null
          : this.unavailable('whatsapp-sessions', res.status);
    remember(this.owners, key, value, value ? OWNER_TTL_MS : UNKNOWN_TTL_MS);
    return value;
  }

  private async companyAccess(companyId: number): Promise<CompanyApiAccess> {
    const hit = this.access.get(companyId);
    if (hit && hit.until > Date.now()) return hit.value;
    const value = await this.fetchAccess(companyId);
    remember(this.access, companyId, value, OWNER_TTL_MS);
    return value;
  }

  /** auth's answer: the company's status and plan (a company it does not know: inactive, nothing allowed). */
  private async fetchAccess(companyId: number): Promise<CompanyApiAccess> {
    const res = await this.ask(`${this.env.AUTH_URL}/internal/companies/${companyId}/api-access`, 'GET');
    return res.status === 200
      ? ((await res.json()) as CompanyApiAccess)
      : res.status === 404
        ? { companyId, active: false, useExternalApi: false }
        : this.unavailable('auth', res.status);
  }

  private async ask(url: string, method: 'GET' | 'POST', body?: unknown): Promise<Response> {
    try {
      return await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${signServiceToken('messaging-gateway', this.env.JWT_SECRET)}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(5000),
      });
    } catch {
      this.sessions.down(new URL(url).origin);
      throw new DomainError('ERR_SERVICE_UNAVAILABLE', { service: new URL(url).host });
    }
  }

  private unavailable(service: string, status: number): never {
    throw new DomainError('ERR_SERVICE_UNAVAILABLE', { service, status });
  }
}

function tokenKey(bearer: string): string {
  return createHash('sha256').update(bearer).digest('base64url');
}

/**
 * Whose tries an address counts as: an IPv4 address itself (an IPv4-mapped IPv6 one too), an IPv6 address
 * its /64 (what one subscriber is given: counting each of its 2^64 addresses apart would count nothing).
 */
export function addressBucket(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1] as string;
  if (!address.includes(':')) return address;
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = address.includes('::') ? (tail ? tail.split(':') : []) : [];
  const groups = address.includes('::') ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => (g || '0').replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

function remember<K, T>(map: Map<K, Cached<T>>, key: K, value: T, ttlMs: number): void {
  if (map.size >= CACHE_MAX) map.delete(map.keys().next().value as K);
  map.set(key, { value, until: Date.now() + ttlMs });
}
