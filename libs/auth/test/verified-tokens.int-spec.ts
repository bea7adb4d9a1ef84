import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import jwt from 'jsonwebtoken';
import { decodeAccessToken, signAccessToken, TokenRevocation, verifyAccessToken } from '../src/index.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/1';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a token verified once per process', () => {
  const secret = `secret-${randomUUID()}`;
  let redis: Redis;
  let revocation: TokenRevocation;
  const user = () => ({
    id: 800_000_000 + Math.floor(Math.random() * 1_000_000),
    companyId: 7,
    profile: 'user' as const,
    super: false,
    sid: randomUUID(),
  });

  beforeAll(async () => {
    redis = new Redis(REDIS_URL);
    revocation = new TokenRevocation(redis);
    await revocation.mirror();
  });
  afterAll(async () => {
    await revocation.close();
    redis.disconnect();
  });

  it('is still refused once revoked', async () => {
    const claims = user();
    const token = signAccessToken(claims, secret);
    expect(await verifyAccessToken(token, secret, revocation)).toMatchObject({ ok: true, claims: { id: claims.id } });
    expect(await verifyAccessToken(token, secret, revocation)).toMatchObject({ ok: true });
    await new TokenRevocation(redis).revokeSessions([claims.sid]);
    await redis.ping();
    expect(await verifyAccessToken(token, secret, revocation)).toEqual({ ok: false, reason: 'revoked' });
  });

  it('expires on time after it was verified', async () => {
    const token = signAccessToken(user(), secret, 1);
    expect(decodeAccessToken(token, secret).ok).toBe(true);
    await sleep(2100);
    expect(decodeAccessToken(token, secret)).toEqual({ ok: false, reason: 'expired' });
  });

  it('is not accepted under another secret, and a forged signature is not found in the cache', async () => {
    const claims = user();
    const token = signAccessToken(claims, secret);
    expect(decodeAccessToken(token, secret).ok).toBe(true);
    expect(decodeAccessToken(token, `${secret}-other`)).toEqual({ ok: false, reason: 'invalid' });
    const forged = jwt.sign({ ...claims, companyId: 8 }, 'not-the-secret', { expiresIn: 60, issuer: 'conversa', algorithm: 'HS256' });
    expect(decodeAccessToken(forged, secret)).toEqual({ ok: false, reason: 'invalid' });
    const [header, , signature] = token.split('.');
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, companyId: 8, exp: Math.floor(Date.now() / 1000) + 60, iss: 'conversa' })).toString('base64url')}.${signature}`;
    expect(decodeAccessToken(tampered, secret)).toEqual({ ok: false, reason: 'invalid' });
  });
});
