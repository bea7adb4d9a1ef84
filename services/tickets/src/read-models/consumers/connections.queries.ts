/** The SQL of connections.consumer.ts, by name. */

export const DELETE_CONNECTIONS_BY_ID = `DELETE FROM tickets.connections WHERE id = $1 AND "companyId" = $2`;

export const UPSERT_CONNECTIONS = `INSERT INTO tickets.connections (id, "companyId", name, status, "isDefault", "queueIds", "greetingMessage", bot, "updatedAt")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, status = EXCLUDED.status, "isDefault" = EXCLUDED."isDefault",
              "queueIds" = EXCLUDED."queueIds", "greetingMessage" = EXCLUDED."greetingMessage", bot = EXCLUDED.bot, "updatedAt" = EXCLUDED."updatedAt"
        WHERE tickets.connections."updatedAt" <= EXCLUDED."updatedAt"`;
