/** The SQL of webhook-dispatcher.ts, by name. */

export const CLAIM_DUE_DELIVERIES = `WITH heads AS (
         SELECT DISTINCT ON ("companyId", "ticketId") id, "nextAttemptAt", "claimedUntil"
           FROM tickets.webhook_deliveries WHERE status = 'pending'
          ORDER BY "companyId", "ticketId", id
       ), due AS (
         SELECT id FROM heads WHERE "nextAttemptAt" <= now() AND ("claimedUntil" IS NULL OR "claimedUntil" < now()) ORDER BY id LIMIT $1
       )
       UPDATE tickets.webhook_deliveries d SET "claimedUntil" = now() + ($2 || ' seconds')::interval
         FROM due WHERE d.id = due.id AND d.status = 'pending' AND (d."claimedUntil" IS NULL OR d."claimedUntil" < now())
       RETURNING d.id, d."companyId", d."ticketId", d.event, d.payload, d.attempts, d."createdAt"`;

export const SELECT_WEBHOOK_TARGET = `SELECT url, secret FROM tickets.webhook_settings WHERE "companyId" = $1 AND enabled`;

export const RECORD_DELIVERY_ATTEMPT = `UPDATE tickets.webhook_deliveries
          SET status = $2::varchar, attempts = attempts + 1, "lastStatus" = $3::int, "lastError" = $4::text, "claimedUntil" = NULL,
              "deliveredAt" = CASE WHEN $2::varchar = 'delivered' THEN now() ELSE NULL END,
              "nextAttemptAt" = now() + ($5 || ' milliseconds')::interval
        WHERE id = $1`;

/** The backlog for the metrics: deliveries pending, and the age of the oldest (the partial index on pending ones). */
export const PENDING_DELIVERIES = `SELECT count(*)::int AS n, COALESCE(EXTRACT(EPOCH FROM now() - min("createdAt")), 0)::float8 AS "oldestS"
         FROM tickets.webhook_deliveries WHERE status = 'pending'`;
