/** The SQL of seed.ts, by name. */

export const LOCK_SEED = `SELECT pg_advisory_xact_lock(hashtext('tickets-seed'))`;

/**
 * The demo queue announced as a queue change (`queue.updated.<companyId>.<id>`) through tickets' outbox, as the
 * queues service does: auth keeps the company's queue ids from these events, and without it refused the seeded queue
 * in a new user's body ("Fila não encontrada"). The relay of the running service publishes it.
 */
export const ANNOUNCE_SEEDED_QUEUE = `INSERT INTO tickets.outbox (subject, "msgId", payload) VALUES ($1, $2, $3::jsonb)`;
