/** The SQL of default-queue.consumer.ts, by name. */

export const LOCK_COMPANY_FIRST_QUEUE = `SELECT pg_advisory_xact_lock(hashtext('tickets-default-queue'), $1)`;
