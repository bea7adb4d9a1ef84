import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import { bearerToken, TokenRevocation, verifyAccessToken } from '@wa/auth';
import { DomainError, setContextIdentity, setMetricsRoute, toErrorBody } from '@wa/server-kit';
import type { NextFunction, Request, Response } from 'express';
import bytes from 'bytes';
import { GatewayEnv } from '../config/env.js';
import { ApiGate } from '../public-api/api-gate.js';
import { ProxyService, type CappedRequest } from './proxy.service.js';
import { apiMetricsRoute, isApiPath, isApiSend, matchRoute } from './route-table.js';

const OWN_PATHS = new Set(['/health', '/health/live', '/health/ready', '/metrics', '/docs', '/docs/openapi.json']);

/**
 * Every request: find the owning service (unknown → 404), check the token unless the path is public
 * (services check it again), refuse oversized bodies early, then stream the request through.
 */
@Injectable()
export class GatewayMiddleware implements NestMiddleware {
  private readonly bodyLimit: number;
  private readonly uploadLimit: number;

  constructor(
    private readonly env: GatewayEnv,
    private readonly proxy: ProxyService,
    @Inject(TokenRevocation) private readonly revocation: TokenRevocation,
    private readonly api: ApiGate,
  ) {
    this.bodyLimit = bytes.parse(env.BODY_LIMIT) ?? 1_048_576;
    this.uploadLimit = bytes.parse(env.UPLOAD_BODY_LIMIT) ?? 25 * 1_048_576;
  }

  async use(req: Request, res: Response, next: NextFunction): Promise<void> {
    // Nest mounts middleware on a pattern, so req.path is relative: route on the original URL
    const url = req.originalUrl ?? req.url;
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    if (OWN_PATHS.has(path) || path.startsWith('/docs/')) return next();
    try {
      // routed and gated on the path's canonical form (case, doubled or trailing slashes): see matchRoute
      const match = matchRoute(req.method, path);
      if (!match || (match.route.api && !isApiPath(req.method, path)))
        throw new DomainError('ERR_NOT_FOUND', { path }, `No route for ${req.method} ${path}.`);
      // the request's metrics are labelled with its route: the route table's prefix (the public API's exact path)
      setMetricsRoute(req, match.route.api ? apiMetricsRoute(req.method, path) : `${match.route.prefix}/*`);
      const upload = /^multipart\/form-data/i.test(req.headers['content-type'] ?? '');
      const limit = upload ? this.uploadLimit : this.bodyLimit;
      const limitText = upload ? this.env.UPLOAD_BODY_LIMIT : this.env.BODY_LIMIT;
      if (Number(req.headers['content-length'] ?? 0) > limit) throw new DomainError('ERR_PAYLOAD_TOO_LARGE', { limit: limitText });
      // the body is counted as it streams through too (a chunked body says no length): see ProxyService
      (req as CappedRequest).bodyCap = { bytes: limit, text: limitText };
      if (match.route.api) {
        // the public API (messages, instance): a connection's token, not a user's (see ApiGate); its paths are exact (isApiPath)
        const paced = isApiSend(req.method, path);
        const { identity } = await this.api.admit(bearerToken(req.headers.authorization), paced, this.proxy.clientAddress(req));
        req.headers.authorization = `Bearer ${identity}`;
      } else if (!match.isPublic) {
        const token = bearerToken(req.headers.authorization);
        const verified = await verifyAccessToken(token, this.env.JWT_SECRET, this.revocation);
        if (!verified.ok) {
          if (verified.reason === 'missing' || verified.reason === 'revoked') throw new DomainError('ERR_SESSION_EXPIRED');
          throw new DomainError('ERR_SESSION_EXPIRED', { reason: verified.reason }, undefined, 403);
        }
        setContextIdentity(req, verified.claims.companyId, verified.claims.id);
        if (match.route.plan) await this.api.assertPlan(verified.claims, match.route.plan);
      }
      req.url = url;
      await this.proxy.handler(match.route.service)(req, res, next);
    } catch (err) {
      const body = toErrorBody(err, (req as Request & { id?: string }).id);
      if (res.headersSent) return void res.end();
      if (typeof body.retryAfter === 'number') res.setHeader('Retry-After', String(body.retryAfter));
      res.status(body.statusCode).json(body);
    }
  }
}
