import { Inject, Injectable, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { AccessTokenClaims, Profile } from '@wa/contracts';
import { DomainError, IS_PUBLIC, setContextIdentity } from '@wa/server-kit';
import type { Request } from 'express';
import { PROFILES, SUPER_ONLY } from './decorators.js';
import { AUTH_OPTIONS, RevokedTokenError, type AuthLibOptions } from './jwt.strategy.js';
import { bearerToken, rememberVerified, TokenRevocation, verifiedClaims } from './tokens.js';

/**
 * Global guard: every route needs a valid, unrevoked access token unless marked @Public().
 * No token → 401 ERR_SESSION_EXPIRED (the app logs out); a bad or expired one → 403 (the app refreshes once
 * and retries); a revoked one (user deleted, session ended) → 401; one signed before its user's profile
 * changed → 403 `stale` (refreshed, it carries the new profile).
 * passport-jwt checks a token the first time this process sees it; after that the token's claims are
 * taken from the verified-token cache (expiry checked on each use) and only revocation is asked again.
 */
@Injectable()
export class JwtAuthGuard extends AuthGuard('jwt') {
  constructor(
    private readonly reflector: Reflector,
    @Inject(AUTH_OPTIONS) private readonly options: AuthLibOptions,
    private readonly revocation: TokenRevocation,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    const req = context.switchToHttp().getRequest<Request & { user: AccessTokenClaims }>();
    const token = bearerToken(req.headers.authorization);
    const known = token ? verifiedClaims(token, this.options.secret) : undefined;
    if (known) {
      const revoked = await this.revocation.revocationOf(known);
      if (revoked) throw revokedError(revoked);
      req.user = known;
    } else {
      await (super.canActivate(context) as Promise<boolean>);
      if (token) rememberVerified(token, this.options.secret, req.user);
    }
    const user = req.user;
    setContextIdentity(req, user.companyId, user.id);
    if (this.reflector.getAllAndOverride<boolean>(SUPER_ONLY, targets) && !user.super) {
      throw new DomainError('ERR_NO_PERMISSION');
    }
    const profiles = this.reflector.getAllAndOverride<Profile[] | undefined>(PROFILES, targets);
    if (profiles && !user.super && !profiles.includes(user.profile)) throw new DomainError('ERR_NO_PERMISSION');
    return true;
  }

  override handleRequest<T>(err: unknown, user: T, info: unknown, context: ExecutionContext): T {
    if (err instanceof RevokedTokenError) throw revokedError(err.kind);
    if (err || !user) {
      const req = context.switchToHttp().getRequest<Request>();
      if (!req.headers.authorization) throw new DomainError('ERR_SESSION_EXPIRED');
      const expired = (info as Error | undefined)?.name === 'TokenExpiredError';
      throw new DomainError('ERR_SESSION_EXPIRED', { reason: expired ? 'expired' : 'invalid' }, undefined, 403);
    }
    return user;
  }
}

/**
 * A revoked token: an ended session answers 401 (the app signs out); a token whose rights changed since it
 * was signed answers 403 `stale` (the app refreshes once and retries, with the current rights).
 */
function revokedError(kind: 'ended' | 'stale'): DomainError {
  return kind === 'stale'
    ? new DomainError('ERR_SESSION_EXPIRED', { reason: 'stale' }, undefined, 403)
    : new DomainError('ERR_SESSION_EXPIRED');
}
