/** The SQL of ticket-expiry.ts, by name. */

/** Idle tickets closed per pass at most (the next pass takes the rest). */
export const EXPIRY_BATCH = 200;

export const TRANSFER_WAITING_TICKETS = `WITH due AS (
           SELECT t.id, q.id AS queue
             FROM tickets.connections c
             JOIN tickets.queues q ON q.id = (c.bot->>'transferQueueId')::int AND q."companyId" = c."companyId"
             JOIN tickets.tickets t ON t."companyId" = c."companyId" AND t."whatsappId" = c.id AND t.status = 'pending' AND t."userId" IS NULL
            WHERE COALESCE((c.bot->>'timeToTransfer')::numeric, 0) > 0 AND NOT t."isGroup"
              AND (t.chatbot OR t."queueId" IS NULL) AND t."queueId" IS DISTINCT FROM q.id
              AND t."updatedAt" < now() - make_interval(mins => (c.bot->>'timeToTransfer')::int)
            LIMIT ${EXPIRY_BATCH}
              FOR UPDATE OF t SKIP LOCKED)
         UPDATE tickets.tickets t SET "queueId" = due.queue, chatbot = false, "updatedAt" = now(),
                "botState" = jsonb_set(COALESCE(t."botState", '{"attempts": 0}'::jsonb), '{step}', '"done"')
           FROM due WHERE t.id = due.id
         RETURNING t.id, t."companyId"`;

export const IDLE_TICKETS = `SELECT t.id, t."companyId"
         FROM tickets.connections c
         JOIN tickets.tickets t ON t."companyId" = c."companyId" AND t."whatsappId" = c.id AND t.status IN ('open', 'pending')
        WHERE COALESCE((c.bot->>'expiresTicket')::numeric, 0) > 0 AND NOT t."isGroup"
          AND t."updatedAt" < now() - make_interval(mins => (c.bot->>'expiresTicket')::int)
        LIMIT ${EXPIRY_BATCH}`;

export const LOCK_IDLE_TICKET = `SELECT coalesce(c.bot->>'expiresInactiveMessage', '') AS message, c.status
         FROM tickets.tickets t JOIN tickets.connections c ON c.id = t."whatsappId"
        WHERE t.id = $1 AND t."companyId" = $2 AND t.status IN ('open', 'pending')
          AND COALESCE((c.bot->>'expiresTicket')::numeric, 0) > 0 AND t."updatedAt" < now() - make_interval(mins => (c.bot->>'expiresTicket')::int)
        FOR UPDATE OF t SKIP LOCKED`;

export const CLOSE_IDLE_TICKET = `UPDATE tickets.tickets SET status = 'closed', chatbot = false, "unreadMessages" = 0, "useIntegration" = false, "promptId" = NULL, "updatedAt" = now()
        WHERE id = $1 AND "companyId" = $2`;
