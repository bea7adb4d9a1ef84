import { isTransientError } from '@wa/event-bus';
import { DomainError } from '@wa/server-kit';

/**
 * The spec's creation errors (spec 01 §8) for a new message or ticket PostgreSQL refused for what it holds or names:
 * SQLSTATE class 23 (the ticket, contact or queue it points at went away meanwhile) or 22 (a value it cannot keep).
 * Anything else is answered as it is: a domain error, an outage (503 through the filter), a fault of ours (500).
 */
export function creationFailed(err: unknown, code: 'ERR_CREATING_MESSAGE' | 'ERR_CREATING_TICKET'): unknown {
  if (err instanceof DomainError || isTransientError(err)) return err;
  const e = err as { code?: unknown; driverError?: { code?: unknown } } | null;
  // TypeORM wraps the driver's error; a prepared statement (queryPrepared) throws it bare
  const state = e?.driverError?.code ?? e?.code;
  return typeof state === 'string' && /^2[23][0-9A-Z]{3}$/.test(state) ? new DomainError(code) : err;
}
