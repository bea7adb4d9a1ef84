/** The SQL of webhook-recorder.ts, by name. */

export const SELECT_ENABLED_WEBHOOKS = `SELECT "companyId", events FROM tickets.webhook_settings WHERE enabled`;

export const UPSERT_WEBHOOK_TICKET_STATUS = `INSERT INTO tickets.webhook_ticket_status ("companyId", "ticketId", status)
         SELECT * FROM unnest($1::int[], $2::int[], $3::varchar[])
         ON CONFLICT ("companyId", "ticketId") DO UPDATE SET status = EXCLUDED.status WHERE webhook_ticket_status.status <> EXCLUDED.status
         RETURNING "companyId", "ticketId"`;

export const INSERT_WEBHOOK_DELIVERIES = `INSERT INTO tickets.webhook_deliveries ("companyId", "ticketId", event, "eventKey", payload)
       SELECT * FROM unnest($1::int[], $2::int[], $3::varchar[], $4::varchar[], $5::jsonb[])
       ON CONFLICT ("companyId", "eventKey", event) DO NOTHING`;
