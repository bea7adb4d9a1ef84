/** The SQL of webhooks.service.ts, by name. */

export const SELECT_WEBHOOK_SETTINGS_BY_COMPANY_ID = `SELECT url, events, enabled, "updatedAt" FROM tickets.webhook_settings WHERE "companyId" = $1`;

/**
 * Saves the endpoint: a new one takes $3 as its secret (the one given, or one made by the server); an existing one
 * takes $6 when given, else keeps its own. `created` tells which it was (a row inserted has no xmax).
 */
export const UPSERT_WEBHOOK_SETTINGS = `INSERT INTO tickets.webhook_settings AS w ("companyId", url, secret, events, enabled, "updatedAt") VALUES ($1, $2, $3, $4, $5, now())
       ON CONFLICT ("companyId") DO UPDATE SET url = EXCLUDED.url, secret = COALESCE($6::text, w.secret), events = EXCLUDED.events,
              enabled = EXCLUDED.enabled, "updatedAt" = now()
       RETURNING (w.xmax = 0) AS created`;

/** A new signing secret (sealed) for the company's webhook; no row when it has none. */
export const REPLACE_WEBHOOK_SECRET = `UPDATE tickets.webhook_settings SET secret = $2, "updatedAt" = now() WHERE "companyId" = $1 RETURNING "companyId"`;

export const DELETE_WEBHOOK_SETTINGS_BY_COMPANY_ID = `DELETE FROM tickets.webhook_settings WHERE "companyId" = $1`;

export const FAIL_PENDING_DELIVERIES = `UPDATE tickets.webhook_deliveries SET status = 'failed', "lastError" = 'webhook removed' WHERE "companyId" = $1 AND status = 'pending'`;

/** A replay's event key: `replay:<the delivery replayed>:<a uuid>` (each replay its own delivery; the log reads the id back). */
const DELIVERY_COLUMNS = `id, event, "ticketId", status, attempts, "lastStatus", "lastError", "createdAt", "deliveredAt", "nextAttemptAt",
         CASE WHEN "eventKey" LIKE 'replay:%' THEN split_part("eventKey", ':', 2) END AS "replayOf"`;

export const SELECT_DELIVERIES_PAGE = `SELECT ${DELIVERY_COLUMNS}
         FROM tickets.webhook_deliveries WHERE "companyId" = $1 AND ($2::varchar IS NULL OR status = $2)
        ORDER BY id DESC LIMIT $3 OFFSET $4`;

/** A new delivery of a delivery's event and payload (the company's own only), to be dispatched like any other. */
export const INSERT_DELIVERY_REPLAY = `INSERT INTO tickets.webhook_deliveries ("companyId", "ticketId", event, "eventKey", payload)
       SELECT "companyId", "ticketId", event, 'replay:' || id || ':' || $3::varchar, payload
         FROM tickets.webhook_deliveries WHERE id = $1::bigint AND "companyId" = $2
       RETURNING ${DELIVERY_COLUMNS}`;
