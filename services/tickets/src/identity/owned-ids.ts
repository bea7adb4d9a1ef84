import { DomainError } from '@wa/server-kit';

/** The tenant tables a request may name rows of by id (each row carries its `companyId`). */
const OWNED_TABLES = {
  queue: 'tickets.queues',
  prompt: 'tickets.prompts',
  integration: 'tickets.queue_integrations',
  tag: 'tickets.tags',
  contact: 'tickets.contacts',
  connection: 'tickets.connections',
  quickMessage: 'tickets.quick_messages',
  ticket: 'tickets.tickets',
} as const;

export type OwnedKind = keyof typeof OWNED_TABLES;

/** Ids a body or query names: the field they came in (for the error), what they name, the ids (null or absent: none). */
export interface OwnedRef {
  field: string;
  kind: OwnedKind;
  ids: number | readonly number[] | null | undefined;
}

interface Queryable {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/**
 * Every id a request names must be a row of the caller's company: a borrowed id (another company's prompt,
 * integration, queue, tag…) answers 400 ERR_VALIDATION naming the field, before anything is written. One
 * round trip for all the fields. Users live in the user directory: CallerService.assertCompanyUser checks them.
 */
export async function assertOwnedIds(db: Queryable, companyId: number, refs: readonly OwnedRef[]): Promise<void> {
  const named = refs
    .map((r) => ({ ...r, list: [...new Set(r.ids === null || r.ids === undefined ? [] : typeof r.ids === 'number' ? [r.ids] : r.ids)] }))
    .filter((r) => r.list.length > 0);
  if (named.length === 0) return;
  for (const r of named) if (!r.list.every((id) => Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647)) throw notFound(r.field);
  const params: unknown[] = [companyId];
  const counts = named.map((r) => {
    params.push(r.list);
    return `(SELECT count(*)::int FROM ${OWNED_TABLES[r.kind]} WHERE "companyId" = $1 AND id = ANY($${params.length}::int[]))`;
  });
  const [row] = (await db.query(`SELECT ARRAY[${counts.join(', ')}] AS found`, params)) as Array<{ found: number[] }>;
  named.forEach((r, i) => {
    if (row?.found[i] !== r.list.length) throw notFound(r.field);
  });
}

function notFound(field: string): DomainError {
  return new DomainError('ERR_VALIDATION', { details: [{ field, messages: ['not found'] }] }, `${field} not found`);
}
