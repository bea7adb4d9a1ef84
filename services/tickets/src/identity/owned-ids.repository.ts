/** The tenant tables a request may name rows of by id (each row carries its `companyId`). */
export const OWNED_TABLES = {
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

interface Queryable {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/** How many of each list's ids are rows of the company's, in the lists' order: one round trip for all of them. */
export async function countOwned(
  db: Queryable,
  companyId: number,
  lists: ReadonlyArray<{ kind: OwnedKind; ids: readonly number[] }>,
): Promise<number[]> {
  const params: unknown[] = [companyId];
  const counts = lists.map((r) => {
    params.push(r.ids);
    return `(SELECT count(*)::int FROM ${OWNED_TABLES[r.kind]} WHERE "companyId" = $1 AND id = ANY($${params.length}::int[]))`;
  });
  const [row] = (await db.query(`SELECT ARRAY[${counts.join(', ')}] AS found`, params)) as Array<{ found: number[] }>;
  return row?.found ?? [];
}
