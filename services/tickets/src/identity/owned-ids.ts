import { DomainError, REF_NOT_FOUND } from '@wa/server-kit';
import { countOwned, type OwnedKind } from './owned-ids.repository.js';

export type { OwnedKind } from './owned-ids.repository.js';

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
  for (const r of named) if (!r.list.every((id) => Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647)) throw notFound(r);
  const found = await countOwned(
    db,
    companyId,
    named.map((r) => ({ kind: r.kind, ids: r.list })),
  );
  named.forEach((r, i) => {
    if (found[i] !== r.list.length) throw notFound(r);
  });
}

function notFound({ field, kind }: Pick<OwnedRef, 'field' | 'kind'>): DomainError {
  return new DomainError('ERR_VALIDATION', { details: [{ field, messages: [REF_NOT_FOUND[kind]] }] }, REF_NOT_FOUND[kind]);
}
