/** The SQL of tickets.service.ts, by name. */

export const UPDATE_TICKETS_RATING_ASKED_AT = `UPDATE tickets.tickets SET "ratingAskedAt" = now() WHERE id = $1 AND "companyId" = $2`;
