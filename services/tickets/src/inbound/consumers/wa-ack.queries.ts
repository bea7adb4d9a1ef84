/** The SQL of wa-ack.consumer.ts, by name. */

/**
 * The message a row `u` (whatsapp, wid, company) names, looked up by its unique key one row at a time. Joined
 * directly, a batch's keys were matched by scanning the connection's messages whenever PostgreSQL's statistics
 * were behind (a new or fast-growing table): each ack's write cost grew with the messages already sent. The
 * LIMIT keeps the lookup a subquery of its own, which the planner does not merge into a join.
 */
export const MESSAGE_BY_WID = `SELECT id FROM tickets.messages WHERE "whatsappId" = u.whatsapp AND wid = u.wid AND "companyId" = u.company LIMIT 1`;

export const SELECT_MESSAGES_BY_WIDS = `SELECT m.* FROM unnest($1::int[], $2::text[], $3::int[]) AS u(whatsapp, wid, company)
             CROSS JOIN LATERAL (${MESSAGE_BY_WID}) f JOIN tickets.messages m ON m.id = f.id`;
