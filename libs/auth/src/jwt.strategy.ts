import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { AccessTokenClaims } from '@wa/contracts';
import type { Request } from 'express';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { secretKey, TOKEN_ISSUER, TokenRevocation } from './tokens.js';

export const AUTH_OPTIONS = Symbol.for('wa.auth-options');
export interface AuthLibOptions {
  secret: string;
  /** this service writes the user directory (auth) and creates its bucket */
  directoryOwner?: boolean;
}

export class RevokedTokenError extends Error {
  /** `ended`: sign in again; `stale`: the rights in it changed, refresh */
  constructor(readonly kind: 'ended' | 'stale' = 'ended') {
    super('token revoked');
    this.name = 'RevokedTokenError';
  }
}

@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    @Inject(AUTH_OPTIONS) options: AuthLibOptions,
    private readonly revocation: TokenRevocation,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      secretOrKey: secretKey(options.secret) as unknown as string,
      issuer: TOKEN_ISSUER,
      algorithms: ['HS256'],
      ignoreExpiration: false,
      passReqToCallback: true,
    });
  }

  async validate(_req: Request, payload: AccessTokenClaims): Promise<AccessTokenClaims> {
    const revoked = await this.revocation.revocationOf(payload);
    if (revoked) throw new RevokedTokenError(revoked);
    return payload;
  }
}
