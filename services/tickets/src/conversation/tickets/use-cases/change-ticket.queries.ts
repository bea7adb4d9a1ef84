/** The statements of a ticket change (ChangeTicket). */

export const UPDATE_TICKETS_RATING_ASKED_AT = `UPDATE tickets.tickets SET "ratingAskedAt" = now() WHERE id = $1 AND "companyId" = $2`;
