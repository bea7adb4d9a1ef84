import type { AccessTokenClaims } from '@wa/contracts';
import type { Redis } from 'ioredis';
import jwt from 'jsonwebtoken';
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

export function signAccessToken(claims: Omit<AccessTokenClaims, 'iat' | 'exp'>, secret: string, ttlSeconds = ACCESS_TOKEN_TTL_S): string {
  return jwt.sign({ ...claims }, secretKey(secret), { expiresIn: Math.min(ttlSeconds, ACCESS_TOKEN_TTL_S), issuer: TOKEN_ISSUER, algorithm: 'HS256' });
}

export type VerifyResult = { ok: true; claims: AccessTokenClaims } | { ok: false; reason: 'missing' | 'invalid' | 'expired' | 'revoked' };

function isClaims(value: unknown): value is AccessTokenClaims {
  const v = value as AccessTokenClaims;
  return !!v && typeof v.id === 'number' && typeof v.companyId === 'number' && typeof v.profile === 'string' && typeof v.sid === 'string';
}

/** Signature and expiry only (no I/O). */
export function decodeAccessToken(token: string | undefined, secret: string): VerifyResult {
  if (!token) return { ok: false, reason: 'missing' };
  try {
    const payload = jwt.verify(token, secretKey(secret), { issuer: TOKEN_ISSUER, algorithms: ['HS256'] });
    return isClaims(payload) ? { ok: true, claims: payload } : { ok: false, reason: 'invalid' };
  } catch (err) {
    return { ok: false, reason: (err as Error).name === 'TokenExpiredError' ? 'expired' : 'invalid' };
  }
}

const userKey = (userId: number) => `auth:revoked:user:${userId}`;
const sessionKey = (sid: string) => `auth:revoked:sid:${sid}`;

/**
 * Tokens of deleted users and ended sessions are refused everywhere before they expire:
 * auth writes the revocation to Redis for the lifetime of an access token, every hop reads it.
 */
export class TokenRevocation {
  constructor(private readonly redis: Redis) {}

  async revokeUser(userId: number): Promise<void> {
    await this.redis.set(userKey(userId), '1', 'EX', ACCESS_TOKEN_TTL_S + 60);
  }

  async revokeSessions(sessionIds: string[]): Promise<void> {
    if (sessionIds.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const sid of sessionIds) pipeline.set(sessionKey(sid), '1', 'EX', ACCESS_TOKEN_TTL_S + 60);
    await pipeline.exec();
  }

  async isRevoked(claims: AccessTokenClaims): Promise<boolean> {
    const [user, session] = await this.redis.mget(userKey(claims.id), sessionKey(claims.sid));
    return user !== null || session !== null;
  }
}

/** Full check used by the gateway and by every service: signature, expiry, revocation. */
export async function verifyAccessToken(token: string | undefined, secret: string, revocation: TokenRevocation): Promise<VerifyResult> {
  const decoded = decodeAccessToken(token, secret);
  if (!decoded.ok) return decoded;
  if (await revocation.isRevoked(decoded.claims)) return { ok: false, reason: 'revoked' };
  return decoded;
}

export function bearerToken(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  const [scheme, token] = value.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : undefined;
}
