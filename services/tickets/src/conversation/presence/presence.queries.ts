/** SQL of ChatPresences (presence.ts). */

/** The open or pending one-to-one ticket of a customer on a connection, by the number (or bare LID's address) it writes from. */
export const TICKET_OF_NUMBER = `SELECT t.id FROM tickets.contacts c
     JOIN tickets.tickets t ON t."companyId" = c."companyId" AND t."contactId" = c.id AND t."whatsappId" = $2 AND t.status <> 'closed' AND NOT t."isGroup"
    WHERE c."companyId" = $1 AND c.number = $3
    LIMIT 1`;

/** The same for a customer WhatsApp names by a LID: a bare LID's contact, or the number's contact that knows the LID. */
export const TICKET_OF_LID = `SELECT t.id FROM tickets.contacts c
     JOIN tickets.tickets t ON t."companyId" = c."companyId" AND t."contactId" = c.id AND t."whatsappId" = $2 AND t.status <> 'closed' AND NOT t."isGroup"
    WHERE c."companyId" = $1 AND (c.number = $3 OR c.lid = $4)
    LIMIT 1`;
