import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

export interface RequestContext {
  requestId: string;
  companyId?: number;
  userId?: number;
}

const storage = new AsyncLocalStorage<RequestContext>();

export const REQUEST_ID_HEADER = 'x-request-id';

export function currentContext(): RequestContext | undefined {
  return storage.getStore();
}

/** Runs work (a consumer, a job) inside a context opened from its payload. */
export function runInContext<T>(ctx: RequestContext, fn: () => T): T {
  return storage.run(ctx, fn);
}

export function requestIdOf(req: Request): string {
  const given = req.headers[REQUEST_ID_HEADER];
  const value = Array.isArray(given) ? given[0] : given;
  return value && /^[\w.:-]{1,128}$/.test(value) ? value : randomUUID();
}

/** Express middleware: takes or makes the request id, echoes it and opens the context. */
export function requestContextMiddleware(req: Request, res: Response, next: NextFunction): void {
  const requestId = (req as Request & { id?: string }).id ?? requestIdOf(req);
  (req as Request & { id?: string }).id = requestId;
  res.setHeader(REQUEST_ID_HEADER, requestId);
  storage.run({ requestId }, next);
}

/** Called by the auth guard once the token is verified. */
export function setContextIdentity(req: Request, companyId: number, userId: number): void {
  const ctx = storage.getStore();
  if (ctx) {
    ctx.companyId = companyId;
    ctx.userId = userId;
  }
  (req as Request & { companyId?: number; userId?: number }).companyId = companyId;
  (req as Request & { companyId?: number; userId?: number }).userId = userId;
}
