import { seesQueuelessTickets } from '@wa/auth';
import { likeEscaped } from '@wa/database';
import type { TicketStatus } from '@wa/contracts';
import type { Caller } from '../../../identity/caller.service.js';
import { TICKET_COLUMNS, TICKET_JOINS } from '../../core/ticket-row.queries.js';

export interface ListTicketsFilter {
  status?: TicketStatus;
  /** any of these statuses (the kanban: open and pending) */
  statuses?: TicketStatus[];
  searchParam?: string;
  showAll?: boolean;
  queueIds?: number[];
  users?: number[];
  /** tickets carrying every one of these tags */
  tags?: number[];
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

/** Search: the newest tickets walked before the trigram indexes are asked (see below). */
const SEARCH_WALK_MIN = 400;
const SEARCH_WALK_MAX = 4000;

/**
 * The ticket finder (after chatwoot's conversation finder): starts from the company, applies what the
 * caller may see, then the filters, newest first, keyset or page. The permission rule: admins see all,
 * agents the tickets of their queues and the ones they hold. Without showAll (and always for agents)
 * a list holds the caller's own tickets and the pending ones, as the ticket manager expects.
 * Search: a term matching much fills its page from the newest tickets; a rare one is found through the
 * trigram indexes. On a million tickets a common or a rare term costs PostgreSQL about a millisecond, one
 * matching a few hundred tickets about ten (a common term took over a second when every match was
 * collected and sorted).
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

  if (!caller.isAdmin) {
    // the shared rule (maySeeTicket of @wa/auth) in SQL
    const queueless = seesQueuelessTickets(caller) ? ` OR (t."queueId" IS NULL AND t."userId" IS NULL)` : '';
    where.push(`(t."queueId" = ANY(${p(caller.queueIds)}::int[]) OR t."userId" = ${p(caller.id)}${queueless})`);
  }
  if (!(caller.isAdmin && f.showAll)) where.push(`(t."userId" = ${p(caller.id)} OR t.status = 'pending')`);
  if (f.status) where.push(`t.status = ${p(f.status)}`);
  if (f.statuses && f.statuses.length > 0) where.push(`t.status = ANY(${p(f.statuses)}::varchar[])`);
  if (f.queueIds && f.queueIds.length > 0) where.push(`(t."queueId" = ANY(${p(f.queueIds)}::int[]) OR t."queueId" IS NULL)`);
  if (f.users && f.users.length > 0 && caller.isAdmin) where.push(`t."userId" = ANY(${p(f.users)}::int[])`);
  if (f.tags && f.tags.length > 0) {
    const tags = [...new Set(f.tags)];
    where.push(
      `t.id IN (SELECT tt."ticketId" FROM tickets.ticket_tags tt WHERE tt."tagId" = ANY(${p(tags)}::int[]) GROUP BY tt."ticketId" HAVING count(*) = ${p(tags.length)})`,
    );
  }
  if (f.withUnreadMessages) where.push(`t."unreadMessages" > 0`);
  if (f.date) where.push(`t."createdAt" >= ${p(f.date)}::date AND t."createdAt" < ${p(f.date)}::date + 1`);
  if (f.updatedAt) where.push(`t."updatedAt" >= ${p(f.updatedAt)}::date AND t."updatedAt" < ${p(f.updatedAt)}::date + 1`);

  if (f.after) where.push(`(t."updatedAt", t.id) < (${p(f.after.updatedAt)}::timestamptz, ${p(f.after.id)})`);
  const filters = where.join('\n         AND ');
  const limit = Math.trunc(f.limit) + 1;
  const offset = f.after ? 0 : Math.trunc(f.offset);

  const term = f.searchParam?.trim().toLowerCase();
  let page: string;
  if (!term) {
    page = `page AS (
      SELECT t.id FROM tickets.tickets t
       WHERE ${filters}
       ORDER BY t."updatedAt" DESC, t.id DESC
       LIMIT ${limit}${offset > 0 ? ` OFFSET ${p(offset)}` : ''})`;
  } else {
    // Two ways to a search page, both exact. A term that matches much is found by walking the newest
    // tickets in list order and testing each (the page fills within a few hundred rows); a term that
    // matches little is found through the trigram indexes, then sorted. The walk goes first, over a
    // bounded window; only when it cannot fill the page do the indexes answer.
    const like = p(`%${likeEscaped(term)}%`);
    const company = p(caller.companyId);
    const need = offset + limit;
    const window = Math.min(SEARCH_WALK_MAX, Math.max(SEARCH_WALK_MIN, 4 * need));
    page = `walk AS MATERIALIZED (
      SELECT w.id, w."updatedAt" FROM (
        SELECT t.id, t."updatedAt", t."contactId" FROM tickets.tickets t
         WHERE ${filters}
         ORDER BY t."updatedAt" DESC, t.id DESC
         LIMIT ${window}) w
       WHERE EXISTS (SELECT 1 FROM tickets.contacts c WHERE c.id = w."contactId" AND (lower(c.name) LIKE ${like} OR c.number LIKE ${like}))
          OR EXISTS (SELECT 1 FROM tickets.messages m WHERE m."ticketId" = w.id AND lower(m.body) LIKE ${like})
       ORDER BY w."updatedAt" DESC, w.id DESC
       LIMIT ${need}),
    page AS (
      (SELECT id FROM walk WHERE (SELECT count(*) FROM walk) = ${need}
        ORDER BY "updatedAt" DESC, id DESC LIMIT ${limit} OFFSET ${offset})
      UNION ALL
      (SELECT t.id FROM tickets.tickets t
        WHERE ${filters}
          AND (SELECT count(*) FROM walk) < ${need}
          AND t.id IN (
            SELECT m."ticketId" FROM tickets.messages m WHERE m."companyId" = ${company} AND lower(m.body) LIKE ${like}
            UNION
            SELECT t2.id FROM tickets.tickets t2 JOIN tickets.contacts c2 ON c2.id = t2."contactId"
             WHERE c2."companyId" = ${company} AND (lower(c2.name) LIKE ${like} OR c2.number LIKE ${like}))
        ORDER BY t."updatedAt" DESC, t.id DESC LIMIT ${limit} OFFSET ${offset}))`;
  }

  const sql = `
    WITH ${page}
    SELECT ${TICKET_COLUMNS}
      FROM page JOIN tickets.tickets t ON t.id = page.id ${TICKET_JOINS}
     ORDER BY t."updatedAt" DESC, t.id DESC`;
  return { sql, params };
}
