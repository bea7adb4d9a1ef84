/** The SQL of prompt-agent.ts, by name. */

export const PROMPT_OF_QUEUE = `SELECT p.* FROM tickets.queues q JOIN tickets.prompts p ON p."companyId" = q."companyId" AND (p.id = q."promptId" OR (q."promptId" IS NULL AND p."queueId" = q.id))
        WHERE q.id = $1 AND q."companyId" = $2 ORDER BY p.id LIMIT 1`;

export const CONVERSATION_HISTORY = `SELECT body, "fromMe" FROM (SELECT body, "fromMe", id FROM tickets.messages WHERE "ticketId" = $1 AND "companyId" = $2 AND body <> '' AND id <= $4
          ORDER BY id DESC LIMIT $3) m ORDER BY id`;
