import {
  applyDecorators,
  createParamDecorator,
  Inject,
  Injectable,
  UseGuards,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { DomainError, OpenApiAuthOf, Public } from '@wa/server-kit';
import type { Request } from 'express';
import jwt from 'jsonwebtoken';
import { AUTH_OPTIONS, type AuthLibOptions } from './jwt.strategy.js';
import { bearerToken, secretKey, TOKEN_ISSUER } from './tokens.js';

/** The audience of a call between services: a user's token never carries it, so it never passes as one. */
const INTERNAL_AUDIENCE = 'conversa-internal';
const SERVICE_TOKEN_TTL_S = 60;

/** A short token one service shows another on an internal route (signed with the shared JWT secret). */
export function signServiceToken(service: string, secret: string): string {
  return jwt.sign({ svc: service }, secretKey(secret), {
    expiresIn: SERVICE_TOKEN_TTL_S,
    issuer: TOKEN_ISSUER,
    audience: INTERNAL_AUDIENCE,
    algorithm: 'HS256',
  });
}

/** The calling service's name, or undefined when the token is not a valid service token. */
export function verifyServiceToken(token: string | undefined, secret: string): string | undefined {
  if (!token) return undefined;
  try {
    const payload = jwt.verify(token, secretKey(secret), { issuer: TOKEN_ISSUER, audience: INTERNAL_AUDIENCE, algorithms: ['HS256'] });
    // a public API call's identity is not a service's
    if (typeof payload !== 'object' || 'api' in payload) return undefined;
    const svc = (payload as { svc?: unknown }).svc;
    return typeof svc === 'string' && svc.length > 0 ? svc : undefined;
  } catch {
    return undefined;
  }
}

/** Lets only other services in (a service token); users' tokens are refused. */
@Injectable()
export class ServiceTokenGuard implements CanActivate {
  constructor(@Inject(AUTH_OPTIONS) private readonly options: AuthLibOptions) {}

  canActivate(ctx: ExecutionContext): boolean {
    const req = ctx.switchToHttp().getRequest<Request>();
    if (!verifyServiceToken(bearerToken(req.headers.authorization), this.options.secret)) throw new DomainError('ERR_UNAUTHENTICATED');
    return true;
  }
}

/** An internal route: answered only to other services (the gateway routes no `/internal` path). */
export const InternalOnly = () => applyDecorators(Public(), UseGuards(ServiceTokenGuard));

/** Who calls the public messages API, as the gateway admitted them: a connection of a company. */
export interface ApiIdentity {
  companyId: number;
  connectionId: number;
  /** a send's place in its connection's pace: its slot (ms since the epoch) and the pace's interval */
  pace?: { notBefore: number; intervalMs: number };
}

/** The gateway's word that a call of the public API comes from this connection (in place of its API token). */
export function signApiIdentity(identity: ApiIdentity, secret: string): string {
  return jwt.sign({ svc: 'messaging-gateway', api: identity }, secretKey(secret), {
    expiresIn: SERVICE_TOKEN_TTL_S,
    issuer: TOKEN_ISSUER,
    audience: INTERNAL_AUDIENCE,
    algorithm: 'HS256',
  });
}

export function verifyApiIdentity(token: string | undefined, secret: string): ApiIdentity | undefined {
  if (!token) return undefined;
  try {
    const payload = jwt.verify(token, secretKey(secret), { issuer: TOKEN_ISSUER, audience: INTERNAL_AUDIENCE, algorithms: ['HS256'] }) as {
      api?: Partial<ApiIdentity>;
    };
    const api = payload?.api;
    if (!api || !Number.isSafeInteger(api.companyId) || !Number.isSafeInteger(api.connectionId)) return undefined;
    const pace =
      api.pace && Number.isFinite(api.pace.notBefore) && Number.isFinite(api.pace.intervalMs)
        ? { notBefore: api.pace.notBefore, intervalMs: api.pace.intervalMs }
        : undefined;
    return { companyId: api.companyId as number, connectionId: api.connectionId as number, ...(pace ? { pace } : {}) };
  } catch {
    return undefined;
  }
}

const API_IDENTITY = Symbol.for('wa.api-identity');

/** Lets in calls of the public messages API admitted by the gateway; a user's token, or none, is refused. */
@Injectable()
export class ApiIdentityGuard implements CanActivate {
  constructor(@Inject(AUTH_OPTIONS) private readonly options: AuthLibOptions) {}

  canActivate(ctx: ExecutionContext): boolean {
    const req = ctx.switchToHttp().getRequest<Request & { [API_IDENTITY]?: ApiIdentity }>();
    const identity = verifyApiIdentity(bearerToken(req.headers.authorization), this.options.secret);
    if (!identity) throw new DomainError('ERR_UNAUTHENTICATED', {}, 'A connection API token is required (Authorization: Bearer <token>).');
    req[API_IDENTITY] = identity;
    return true;
  }
}

/** A route of the public messages API (the gateway admits the connection's token; see ApiGate). */
export const PublicApi = () => applyDecorators(OpenApiAuthOf('connection-token'), Public(), UseGuards(ApiIdentityGuard));

/** The connection calling a PublicApi route. */
export const ApiCaller = createParamDecorator((_data: unknown, ctx: ExecutionContext): ApiIdentity => {
  const identity = ctx.switchToHttp().getRequest<Request & { [API_IDENTITY]?: ApiIdentity }>()[API_IDENTITY];
  if (!identity) throw new DomainError('ERR_UNAUTHENTICATED');
  return identity;
});
