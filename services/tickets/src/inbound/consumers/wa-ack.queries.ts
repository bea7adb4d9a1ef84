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

/** Sends given up, by (connection, WhatsApp id, company): marked failed unless an ack showed them through. */
export const MARK_SENDS_FAILED = `UPDATE tickets.messages m SET "failedReason" = u.reason, "updatedAt" = now()
               FROM unnest($1::int[], $2::text[], $3::int[], $4::text[]) AS u(whatsapp, wid, company, reason)
              WHERE m."whatsappId" = u.whatsapp AND m.wid = u.wid AND m."companyId" = u.company AND m.ack = 0 AND m."failedReason" IS NULL
              RETURNING m.id`;

/** Each message's ack raised to the batch's highest (only ever up), the risen rows whole. */
export const RAISE_ACKS = `UPDATE tickets.messages m SET ack = v.ack, "failedReason" = NULL, "updatedAt" = now()
           FROM (SELECT f.id, u.ack FROM unnest($1::int[], $2::text[], $3::int[], $4::int[]) AS u(whatsapp, wid, ack, company)
                   CROSS JOIN LATERAL (${MESSAGE_BY_WID}) f) v
          WHERE m.id = v.id AND m.ack < v.ack
          RETURNING m.*`;
