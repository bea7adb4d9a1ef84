/** The SQL of schedule-sender.ts, by name. */

export const OPEN_TICKETS_OF_CONTACTS = `SELECT DISTINCT ON (t."companyId", t."contactId") t.id, t."companyId", t."contactId"
         FROM unnest($1::int[], $2::int[]) AS p(company, contact)
         JOIN tickets.tickets t ON t."companyId" = p.company AND t."contactId" = p.contact AND t.status <> 'closed'
        ORDER BY t."companyId", t."contactId", t."updatedAt" DESC, t.id DESC`;

/** Schedules sent (ids $1), each with the ticket it went into ($2). */
export const MARK_SCHEDULES_SENT = `UPDATE tickets.schedules s SET status = 'ENVIADA', "sentAt" = now(), "ticketId" = u.ticket, reason = NULL, "updatedAt" = now()
           FROM unnest($1::int[], $2::int[]) AS u(id, ticket) WHERE s.id = u.id
         RETURNING s.id, s."sentAt", s."updatedAt"`;
