/** The SQL of integration-agent.ts, by name. */

export const INTEGRATION_OF_QUEUE = `SELECT i.* FROM tickets.queues q JOIN tickets.queue_integrations i ON i.id = q."integrationId" AND i."companyId" = q."companyId" WHERE q.id = $1 AND q."companyId" = $2`;
