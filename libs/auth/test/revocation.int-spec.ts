import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { AccessTokenClaims } from '@wa/contracts';
import { TokenRevocation } from '../src/index.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/1';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let nextUser = 900_000_000 + Math.floor(Math.random() * 1_000_000);
const claims = (): AccessTokenClaims => ({
  id: nextUser++,
  companyId: 1,
  profile: 'user',
  super: false,
  sid: randomUUID(),
  iat: 0,
  exp: 0,
});

describe('TokenRevocation mirrored in memory', () => {
  let redis: Redis;
  let otherDb: Redis;
  const open: TokenRevocation[] = [];
  const clients: Redis[] = [];
  const client = () => {
    const c = new Redis(REDIS_URL);
    clients.push(c);
    return c;
  };
  const mirrored = async (client = redis) => {
    const r = new TokenRevocation(client);
    open.push(r);
    await r.mirror();
    return r;
  };

  beforeAll(() => {
    redis = new Redis(REDIS_URL);
    const url = new URL(REDIS_URL);
    const db = Number(url.pathname.slice(1) || 0);
    url.pathname = `/${db === 15 ? 14 : 15}`;
    otherDb = new Redis(url.toString());
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((r) => r.close()));
    for (const c of clients.splice(0)) c.disconnect();
  });
  afterAll(async () => {
    redis.disconnect();
    otherDb.disconnect();
  });

  it('answers from memory once loaded, and sees a revocation made by another process before any later request can arrive', async () => {
    const checker = await mirrored();
    expect(checker.mirrored).toBe(true);
    const auth = new TokenRevocation(client()); // another process: no mirror of its own
    const user = claims();
    const session = claims();
    expect(await checker.isRevoked(user)).toBe(false);
    await auth.revokeUser(user.id);
    await auth.revokeSessions([session.sid]);
    // a later request reaches this process at least one network round trip after the revoking call
    // returned; Redis pushed the revocation to the subscriber before it answered that call
    await redis.ping();
    expect(await checker.isRevoked(user)).toBe(true);
    expect(await checker.isRevoked({ ...claims(), sid: session.sid })).toBe(true);
    expect(await checker.isRevoked(claims())).toBe(false);
  });

  it('loads the revocations made before it started, with their remaining lifetime', async () => {
    const earlier = claims();
    await new TokenRevocation(redis).revokeSessions([earlier.sid]);
    const late = await mirrored();
    expect(await late.isRevoked(earlier)).toBe(true);
  });

  it('ignores revocations of another Redis database (pub/sub does not know databases)', async () => {
    const checker = await mirrored();
    const victim = claims();
    await new TokenRevocation(otherDb).revokeUser(victim.id);
    await sleep(50);
    expect(await checker.isRevoked(victim)).toBe(false);
    await otherDb.del(`auth:revoked:user:${victim.id}`);
  });

  it('asks Redis while its subscription is down, then reloads what it missed', async () => {
    const checker = await mirrored(client());
    const sub = (checker as unknown as { subscriber: Redis }).subscriber;
    // the subscription drops: a revocation published meanwhile never reaches the mirror …
    const closed = new Promise((resolve) => sub.once('close', resolve));
    sub.disconnect(true);
    await closed;
    const missed = claims();
    await new TokenRevocation(redis).revokeSessions([missed.sid]);
    // … yet the check is right, from Redis then from the reloaded mirror
    expect(await checker.isRevoked(missed)).toBe(true);
    const until = Date.now() + 10_000;
    while (!checker.mirrored && Date.now() < until) await sleep(20);
    expect(checker.mirrored).toBe(true);
    expect(await checker.isRevoked(missed)).toBe(true);
  });

  it('a subscription that stops answering without closing is caught by the heartbeat: checks ask Redis within a second, and the mirror reloads', async () => {
    const checker = await mirrored(client());
    const sub = (checker as unknown as { subscriber: Redis & { stream: { pause(): void; resume(): void } } }).subscriber;
    // nothing more is read from the subscription (a half-open connection): the revocation is not seen …
    sub.stream.pause();
    const missed = claims();
    await new TokenRevocation(redis).revokeSessions([missed.sid]);
    const until = Date.now() + 3000;
    while (checker.mirrored && Date.now() < until) await sleep(20);
    // … but within a second the mirror stops answering, and Redis says the token is revoked
    expect(checker.mirrored).toBe(false);
    expect(await checker.isRevoked(missed)).toBe(true);
    sub.stream.resume();
    const back = Date.now() + 10_000;
    while (!checker.mirrored && Date.now() < back) await sleep(20);
    expect(checker.mirrored).toBe(true);
    expect(await checker.isRevoked(missed)).toBe(true);
  });

  it('without a mirror every check asks Redis', async () => {
    const plain = new TokenRevocation(redis);
    const c = claims();
    expect(await plain.isRevoked(c)).toBe(false);
    await new TokenRevocation(redis).revokeUser(c.id);
    expect(await plain.isRevoked(c)).toBe(true);
  });
});
