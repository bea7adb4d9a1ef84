import { ArgumentsHost, Catch, HttpException, Logger, type ExceptionFilter } from '@nestjs/common';
import { ErrorMessages, isErrorCode, type ErrorBody, type ErrorCode } from '@wa/contracts';
import type { Request, Response } from 'express';
import { isTransientError } from '@wa/event-bus';
import { DomainError } from './domain-error.js';

const STATUS_CODES: Record<number, ErrorCode> = {
  400: 'ERR_VALIDATION',
  401: 'ERR_UNAUTHENTICATED',
  403: 'ERR_NO_PERMISSION',
  404: 'ERR_NOT_FOUND',
  413: 'ERR_PAYLOAD_TOO_LARGE',
  429: 'ERR_TOO_MANY_ATTEMPTS',
  503: 'ERR_SERVICE_UNAVAILABLE',
};

interface BodyParserError {
  type?: string;
  status?: number;
  statusCode?: number;
}

/** Turns anything thrown into `{error, message, statusCode, requestId}`; only unknown errors are 500s. */
export function toErrorBody(exception: unknown, requestId?: string): ErrorBody {
  // body-parser's errors reach us raw or wrapped by Nest (as the cause of an HttpException)
  const parserError = (exception instanceof HttpException ? exception.cause : exception) as BodyParserError | undefined;
  if (parserError?.type === 'entity.parse.failed') {
    return { error: 'ERR_MALFORMED_JSON', message: ErrorMessages.ERR_MALFORMED_JSON, statusCode: 400, requestId };
  }
  if (parserError?.type === 'entity.too.large') {
    return { error: 'ERR_PAYLOAD_TOO_LARGE', message: ErrorMessages.ERR_PAYLOAD_TOO_LARGE, statusCode: 413, requestId };
  }
  if (exception instanceof DomainError) {
    return { ...exception.extra, error: exception.code, message: exception.message, statusCode: exception.status, requestId };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const response = exception.getResponse();
    const raw = typeof response === 'object' && response !== null ? (response as Record<string, unknown>) : {};
    const code: ErrorCode = isErrorCode(raw.error)
      ? raw.error
      : (STATUS_CODES[status] ?? (status >= 500 ? 'ERR_INTERNAL' : 'ERR_VALIDATION'));
    const message = typeof raw.message === 'string' ? raw.message : typeof response === 'string' ? response : ErrorMessages[code];
    return { ...raw, error: code, message, statusCode: status, requestId };
  }
  // PostgreSQL, Redis or NATS unreachable, restarting, or a stream full: try again later, not a bug
  if (isTransientError(exception)) {
    return { error: 'ERR_SERVICE_UNAVAILABLE', message: ErrorMessages.ERR_SERVICE_UNAVAILABLE, statusCode: 503, retryAfter: 5, requestId };
  }
  if (isBadDataError(exception)) {
    // a value the database cannot take (a number out of range, text where a number goes): bad input, not a fault
    return { error: 'ERR_VALIDATION', message: ErrorMessages.ERR_VALIDATION, statusCode: 400, requestId };
  }
  const status = parserError?.status ?? parserError?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const code = STATUS_CODES[status] ?? 'ERR_VALIDATION';
    return { error: code, message: ErrorMessages[code], statusCode: status, requestId };
  }
  return { error: 'ERR_INTERNAL', message: ErrorMessages.ERR_INTERNAL, statusCode: 500, requestId };
}

/** PostgreSQL's class 22 (data exception): 22003 out of range, 22P02 invalid text, 22001 too long… */
function isBadDataError(err: unknown): boolean {
  const e = err as { code?: unknown; driverError?: { code?: unknown } } | undefined;
  const code = typeof e?.code === 'string' ? e.code : typeof e?.driverError?.code === 'string' ? e.driverError.code : undefined;
  return code !== undefined && /^22[0-9A-Z]{3}$/.test(code);
}

@Catch()
export class DomainErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('ErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<Request & { id?: string }>();
    const res = ctx.getResponse<Response>();
    const body = toErrorBody(exception, req?.id);
    if (body.statusCode >= 500) {
      this.logger.error({ err: exception, requestId: req?.id }, 'unhandled error');
    }
    if (res.headersSent) return;
    if (typeof body.retryAfter === 'number') res.setHeader('Retry-After', String(body.retryAfter));
    res.status(body.statusCode).json(body);
  }
}
