/** The SQL of queues.service.ts, by name. */

export const LOCK_COMPANY_QUEUES = `SELECT pg_advisory_xact_lock(hashtext('tickets.queues'), $1)`;

export const SELECT_QUEUE_FILES = `SELECT "mediaPath" AS path FROM tickets.queues WHERE id = $1 AND "companyId" = $2 AND "mediaPath" IS NOT NULL
         UNION ALL SELECT "mediaPath" FROM tickets.queue_options WHERE "queueId" = $1 AND "companyId" = $2 AND "mediaPath" IS NOT NULL`;
