import type { TicketStatus } from '@wa/contracts';
import type { Caller } from '../../identity/caller.service.js';
import { TICKET_COLUMNS, TICKET_JOINS } from '../ticket-view.js';

export interface ListTicketsFilter {
  status?: TicketStatus;
  searchParam?: string;
  showAll?: boolean;
  queueIds?: number[];
  users?: number[];
  withUnreadMessages?: boolean;
  /** YYYY-MM-DD: created that day */
  date?: string;
  /** YYYY-MM-DD: last updated that day */
  updatedAt?: string;
  /** keyset: the last row's (updatedAt, id) */
  after?: { updatedAt: string; id: number };
  offset: number;
  limit: number;
}

/**
 * The ticket finder (after chatwoot's conversation finder): starts from the company, applies what the
 * caller may see, then the filters, newest first, keyset or page. The permission rule: admins see all,
 * agents the tickets of their queues and the ones they hold. Without showAll (and always for agents)
 * a list holds the caller's own tickets and the pending ones, as the ticket manager expects.
 * Search narrows to candidate tickets first through the trigram indexes, so a rare term is fast.
 * The page is chosen on the tickets table alone (an index scan, index-only for an admin's list), and only
 * its rows are joined to their contact, queue and connection, so a deep page costs little more than the first.
 * The LIMIT is written into the text (the page size is the code's, not the caller's): a plan made without
 * the values then still knows a page is a few rows and reaches them by index.
 */
export function listTicketsQuery(caller: Caller, f: ListTicketsFilter): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const p = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const where: string[] = [`t."companyId" = ${p(caller.companyId)}`];

  if (!caller.isAdmin) where.push(`(t."queueId" = ANY(${p(caller.queueIds)}::int[]) OR t."userId" = ${p(caller.id)})`);
  if (!(caller.isAdmin && f.showAll)) where.push(`(t."userId" = ${p(caller.id)} OR t.status = 'pending')`);
  if (f.status) where.push(`t.status = ${p(f.status)}`);
  if (f.queueIds && f.queueIds.length > 0) where.push(`(t."queueId" = ANY(${p(f.queueIds)}::int[]) OR t."queueId" IS NULL)`);
  if (f.users && f.users.length > 0 && caller.isAdmin) where.push(`t."userId" = ANY(${p(f.users)}::int[])`);
  if (f.withUnreadMessages) where.push(`t."unreadMessages" > 0`);
  if (f.date) where.push(`t."createdAt" >= ${p(f.date)}::date AND t."createdAt" < ${p(f.date)}::date + 1`);
  if (f.updatedAt) where.push(`t."updatedAt" >= ${p(f.updatedAt)}::date AND t."updatedAt" < ${p(f.updatedAt)}::date + 1`);

  const term = f.searchParam?.trim().toLowerCase();
  if (term) {
    const like = p(`%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    const company = p(caller.companyId);
    where.push(`t.id IN (
        SELECT m."ticketId" FROM tickets.messages m WHERE m."companyId" = ${company} AND lower(m.body) LIKE ${like}
        UNION
        SELECT t2.id FROM tickets.tickets t2 JOIN tickets.contacts c2 ON c2.id = t2."contactId"
         WHERE c2."companyId" = ${company} AND (lower(c2.name) LIKE ${like} OR c2.number LIKE ${like}))`);
  }
  if (f.after) where.push(`(t."updatedAt", t.id) < (${p(f.after.updatedAt)}::timestamptz, ${p(f.after.id)})`);

  const sql = `
    WITH page AS (
      SELECT t.id FROM tickets.tickets t
       WHERE ${where.join('\n         AND ')}
       ORDER BY t."updatedAt" DESC, t.id DESC
       LIMIT ${Math.trunc(f.limit) + 1}${!f.after && f.offset > 0 ? ` OFFSET ${p(f.offset)}` : ''})
    SELECT ${TICKET_COLUMNS}
      FROM page JOIN tickets.tickets t ON t.id = page.id ${TICKET_JOINS}
     ORDER BY t."updatedAt" DESC, t.id DESC`;
  return { sql, params };
}
