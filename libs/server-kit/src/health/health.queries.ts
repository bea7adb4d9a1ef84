/** The readiness probe's statement: the database answers a query (HealthController). */
export const PING = 'SELECT 1';
