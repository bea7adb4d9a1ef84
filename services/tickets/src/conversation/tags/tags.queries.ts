/** The SQL of tags.service.ts, by name. */

export const TAG_NAME_LIKE = ` AND lower(g.name) LIKE $2 ESCAPE '\\'`;

export const SELECT_OPEN_TICKETS_OF_TAG = `SELECT tt."ticketId" FROM tickets.ticket_tags tt JOIN tickets.tickets t ON t.id = tt."ticketId" WHERE tt."tagId" = $1 AND tt."companyId" = $2 AND t.status <> 'closed'`;

export const SELECT_TICKETS_OF_TAG = `SELECT "ticketId" FROM tickets.ticket_tags WHERE "tagId" = $1 AND "companyId" = $2`;

export const DELETE_TICKET_TAGS_NOT_IN = `DELETE FROM tickets.ticket_tags WHERE "ticketId" = $1 AND NOT ("tagId" = ANY($2::int[])) AND "companyId" = $3`;

export const INSERT_TICKET_TAGS_MANY = `INSERT INTO tickets.ticket_tags ("ticketId", "tagId", "companyId") SELECT $1, unnest($2::int[]), $3 ON CONFLICT DO NOTHING`;

export const INSERT_TICKET_TAG = `INSERT INTO tickets.ticket_tags ("ticketId", "tagId", "companyId") VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`;

export const DELETE_TICKET_TAGS = `DELETE FROM tickets.ticket_tags WHERE "ticketId" = $1 AND "companyId" = $2`;

export const COUNT_COMPANY_TAGS = `SELECT count(*)::int AS n FROM tickets.tags WHERE "companyId" = $1 AND id = ANY($2::int[])`;

/** A page of the company's tags ($1) by name, each with its tickets counted; `filter`: TAG_NAME_LIKE ($2) or empty. */
export function tagsPageSql(filter: string, offset: number, limit: number): string {
  return `SELECT g.*, (SELECT count(*) FROM tickets.ticket_tags tt WHERE tt."tagId" = g.id) AS "ticketsCount"
         FROM tickets.tags g WHERE g."companyId" = $1${filter}
        ORDER BY lower(g.name), g.id OFFSET ${offset} LIMIT ${limit}`;
}
