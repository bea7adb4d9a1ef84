import 'reflect-metadata';
import type { INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { NestExpressApplication } from '@nestjs/platform-express';
import cookieParser from 'cookie-parser';
import { Logger } from 'nestjs-pino';
import { trustedProxies, type BaseEnv } from './config/base.env.js';
import { requestContextMiddleware } from './context/request-context.js';
import { createValidationPipe } from './errors/validation.js';
import { describeOpenApi } from './openapi/openapi.js';
import { attachOpenApiAnswers, loadOpenApiAnswers } from './openapi/openapi-answers.js';

export interface CreateAppOptions {
  env: BaseEnv;
  /** called before listen: routes of the service's own (swagger, proxies) */
  configure?: (app: NestExpressApplication) => void | Promise<void>;
  /** keep Nest's body parser off (the gateway streams bodies through) */
  rawBody?: boolean;
  /** title of the service's OpenAPI document, served at GET /openapi.json for the gateway's /docs */
  openApiTitle?: string;
}

/** Builds a service app the same way in production and in tests. */
export async function createServiceApp(module: Type<unknown>, options: CreateAppOptions): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(module, {
    bufferLogs: true,
    bodyParser: false,
    abortOnError: false,
    // the parsed body's bytes as they came stay on the request (`req.rawBody`): a webhook's signature covers them
    rawBody: true,
  });
  app.useLogger(app.get(Logger));
  // X-Forwarded-For is believed only from TRUSTED_PROXIES; from anyone else the client is the connection's address
  app.set('trust proxy', trustedProxies(options.env));
  app.disable('x-powered-by');
  // Express hashes every GET body for an ETag; API clients never send it back, and the hash of a list page
  // cost about as much as writing it out
  app.set('etag', false);
  app.use(requestContextMiddleware);
  if (!options.rawBody) {
    app.useBodyParser('json', { limit: options.env.BODY_LIMIT });
    app.useBodyParser('urlencoded', { limit: options.env.BODY_LIMIT, extended: true });
  }
  app.use(cookieParser());
  app.useGlobalPipes(createValidationPipe());
  // process.exit (not a re-raised signal) lets pino flush its last lines
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
  await options.configure?.(app);
  if (options.openApiTitle) {
    const document = buildOpenApiDocument(app, options.openApiTitle);
    app
      .getHttpAdapter()
      .getInstance()
      .get('/openapi.json', (_req: unknown, res: { json(body: unknown): void }) => res.json(document));
  }
  return app;
}

/** The service's OpenAPI document: its routes as Nest describes them, completed by `describeOpenApi`. */
export function buildOpenApiDocument(app: INestApplication, title: string): OpenAPIObject {
  // the success answers' schemas come from the build (scripts/openapi-answers.mjs), beside dist/main.js
  return attachOpenApiAnswers(
    describeOpenApi(SwaggerModule.createDocument(app, new DocumentBuilder().setTitle(title).build())),
    loadOpenApiAnswers(),
  );
}

/**
 * Starts a service: listens, and on SIGTERM stops taking requests, lets consumers drain and closes
 * connections (Nest's shutdown hooks), with a hard deadline.
 */
export async function startService(module: Type<unknown>, options: CreateAppOptions & { service: string }): Promise<INestApplication> {
  const app = await createServiceApp(module, { openApiTitle: options.service, ...options });
  return startApp(app, options);
}

export async function startApp<A extends INestApplication>(app: A, options: { env: BaseEnv; service: string }): Promise<A> {
  const deadline = options.env.SHUTDOWN_TIMEOUT_S * 1000;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      setTimeout(() => process.exit(1), deadline).unref();
    });
  }
  await app.listen(options.env.PORT, options.env.HOST);
  // Node's client agents drop an idle kept-alive socket after 5 s, as Node's server does: when the server
  // closes first, the gateway may send on a socket being closed (ECONNRESET, a 503 for the caller).
  // Keeping idle sockets open longer on the server side lets the client always be the one to close.
  const server = app.getHttpServer() as import('node:http').Server;
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  const url = await app.getUrl();
  app.get(Logger).log({ service: options.service, url }, `${options.service} listening`);
  return app;
}
