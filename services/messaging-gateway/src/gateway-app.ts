import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import { createServiceApp, DomainError, toErrorBody } from '@wa/server-kit';
import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import type { Server } from 'node:http';
import { AppModule } from './app.module.js';
import { GatewayEnv } from './config/env.js';
import { OpenApiAggregator } from './docs/openapi.aggregator.js';
import { ProxyService } from './routing/proxy.service.js';

/** The gateway app: bodies stream through untouched, CORS for the web origin, /docs, websocket upgrades. */
export async function createGatewayApp(env: GatewayEnv): Promise<NestExpressApplication> {
  const app = await createServiceApp(AppModule.register(env) as never, { env, rawBody: true });
  app.use(operatorsOnly(env.DOCS_PUBLIC ? /^\/metrics(\/|$)/ : OPERATOR_PATHS));
  // security headers on every answer: an API never framed, sniffed or leaking its URLs (the CSP fits /docs)
  app.use(
    helmet({
      contentSecurityPolicy: { directives: { frameAncestors: ["'none'"] } },
      referrerPolicy: { policy: 'no-referrer' },
      crossOriginResourcePolicy: { policy: 'cross-origin' },
    }),
  );
  const origins = env.WEB_ORIGIN.split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  app.enableCors({
    origin: origins,
    credentials: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['authorization', 'content-type', 'x-request-id'],
    exposedHeaders: ['x-request-id', 'retry-after'],
    maxAge: 600,
  });
  const aggregator = app.get(OpenApiAggregator);
  SwaggerModule.setup(
    'docs',
    app,
    { openapi: '3.0.0', info: { title: 'Conversa API', version: '1' }, paths: {} },
    {
      jsonDocumentUrl: 'docs/openapi.json',
      patchDocumentOnRequest: () => aggregator.document() as never,
    },
  );
  // the public API's own documentation, answered through the ingress (integrators read it where they call it)
  SwaggerModule.setup(
    'api/docs',
    app,
    { openapi: '3.1.0', info: { title: 'Conversa public API', version: '1' }, paths: {} },
    {
      jsonDocumentUrl: 'api/docs/openapi.json',
      patchDocumentOnRequest: () => aggregator.publicDocument() as never,
    },
  );
  const proxy = app.get(ProxyService);
  (app.getHttpServer() as Server).on('upgrade', (req, socket, head) => {
    if ((req.url ?? '').startsWith('/socket.io')) proxy.upgrade(req, socket as never, head);
    else socket.destroy();
  });
  return app;
}

/** What only operators use: scraped or opened on the pod itself, never through the public ingress. */
const OPERATOR_PATHS = /^\/(metrics|docs)(\/|$)/;

/**
 * `/metrics` and `/docs` answer requests made straight to the gateway (Prometheus, an operator's
 * port-forward, `npm start`), not those that came through a proxy: the ingress adds X-Forwarded-For to
 * every request it passes, and a client cannot take it off. Such a request gets the 404 of an unknown path.
 * With DOCS_PUBLIC, `/docs` is answered through the ingress too; `/api/docs` (the public API's) always is.
 */
function operatorsOnly(paths: RegExp) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!paths.test(req.path) || req.headers['x-forwarded-for'] === undefined) return next();
    const body = toErrorBody(
      new DomainError('ERR_NOT_FOUND', { path: req.path }, `No route for ${req.method} ${req.path}.`),
      (req as Request & { id?: string }).id,
    );
    res.status(404).json(body);
  };
}
