/** The SQL of seed.ts, by name. */

export const LOCK_SEED = `SELECT pg_advisory_xact_lock(hashtext('tickets-seed'))`;
