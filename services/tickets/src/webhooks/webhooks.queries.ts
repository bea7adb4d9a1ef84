/** The SQL of webhooks.service.ts, by name. */

export const SELECT_WEBHOOK_SETTINGS_BY_COMPANY_ID = `SELECT url, events, enabled, "updatedAt" FROM tickets.webhook_settings WHERE "companyId" = $1`;

export const UPSERT_WEBHOOK_SETTINGS = `INSERT INTO tickets.webhook_settings ("companyId", url, secret, events, enabled, "updatedAt") VALUES ($1, $2, $3, $4, $5, now())
       ON CONFLICT ("companyId") DO UPDATE SET url = EXCLUDED.url, secret = EXCLUDED.secret, events = EXCLUDED.events, enabled = EXCLUDED.enabled, "updatedAt" = now()`;

export const DELETE_WEBHOOK_SETTINGS_BY_COMPANY_ID = `DELETE FROM tickets.webhook_settings WHERE "companyId" = $1`;

export const FAIL_PENDING_DELIVERIES = `UPDATE tickets.webhook_deliveries SET status = 'failed', "lastError" = 'webhook removed' WHERE "companyId" = $1 AND status = 'pending'`;

export const SELECT_DELIVERIES_PAGE = `SELECT id, event, "ticketId", status, attempts, "lastStatus", "lastError", "createdAt", "deliveredAt", "nextAttemptAt"
         FROM tickets.webhook_deliveries WHERE "companyId" = $1 AND ($2::varchar IS NULL OR status = $2)
        ORDER BY id DESC LIMIT $3 OFFSET $4`;
