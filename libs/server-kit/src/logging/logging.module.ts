import { type DynamicModule } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestIdOf, REQUEST_ID_HEADER } from '../context/request-context.js';

type Req = IncomingMessage & { id?: string; companyId?: number; userId?: number; originalUrl?: string };

const QUIET_PATHS = new Set(['/health', '/health/live', '/health/ready', '/metrics']);

/** Paths that carry secrets in their segments (spec 02: the reset code and the new password are path parameters). */
const SECRET_PATHS = /^\/(resetpasswords|forgetpassword)\/.*/;

/** The path a log line shows: no query string, and the segments of a secret-carrying path masked. */
export function loggedPath(url: string): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  return path.replace(SECRET_PATHS, (_m, route: string) => `/${route}/[redacted]`);
}

function pathOf(req: Req): string {
  return loggedPath(req.originalUrl ?? req.url ?? '/');
}

/** JSON log lines: one per request with method, path, status, duration, request id and company id. */
export function loggingModule(service: string, level: string): DynamicModule {
  return LoggerModule.forRoot({
    pinoHttp: {
      level,
      base: { service },
      messageKey: 'msg',
      timestamp: () => `,"time":"${new Date().toISOString()}"`,
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'password', '*.password'], censor: '[redacted]' },
      genReqId: (req: IncomingMessage, res: ServerResponse) => {
        const id = requestIdOf(req as never);
        res.setHeader(REQUEST_ID_HEADER, id);
        return id;
      },
      quietReqLogger: true,
      customAttributeKeys: { reqId: 'requestId' },
      serializers: { req: () => undefined, res: () => undefined, responseTime: () => undefined },
      customLogLevel: (req, res, err) => {
        if (err || res.statusCode >= 500) return 'error';
        if (QUIET_PATHS.has(pathOf(req as Req))) return 'debug';
        return 'info';
      },
      customSuccessMessage: () => 'request',
      customErrorMessage: () => 'request failed',
      customSuccessObject: (req, res, val: Record<string, unknown>) => requestLine(req as Req, res, val),
      customErrorObject: (req, res, _err, val: Record<string, unknown>) => requestLine(req as Req, res, val),
    },
    forRoutes: ['*path'],
  });
}

function requestLine(req: Req, res: ServerResponse, val: Record<string, unknown>): Record<string, unknown> {
  return {
    method: req.method,
    path: pathOf(req),
    status: res.statusCode,
    durationMs: val.responseTime,
    companyId: req.companyId ?? null,
    userId: req.userId ?? null,
  };
}
