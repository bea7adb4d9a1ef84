/** SQL of ContactLids (contact-lids.ts): a LID's contact and its number's made one. */

/** The LID's contact and the number's (and one that carried the LID), locked, by id. */
export const LOCKED_CONTACTS = `SELECT * FROM tickets.contacts WHERE "companyId" = $1 AND (number = ANY($2::varchar[]) OR lid = $3) ORDER BY id FOR UPDATE`;

/** Contacts that let a LID go (WhatsApp moved it to another number). */
export const FORGET_LID = `UPDATE tickets.contacts SET lid = NULL, "updatedAt" = now() WHERE "companyId" = $1 AND id = ANY($2::int[])`;

/** The number's contact knows its LID. */
export const SET_LID = `UPDATE tickets.contacts SET lid = $3, "updatedAt" = now() WHERE "companyId" = $1 AND id = $2`;

/** The LID's contact becomes the number's: its name stays unless it was the LID's address itself. */
export const LID_CONTACT_TO_NUMBER = `UPDATE tickets.contacts SET number = $3, lid = $4, name = CASE WHEN name = number THEN $3 ELSE name END, "updatedAt" = now()
          WHERE "companyId" = $1 AND id = $2`;

/** The number's contact keeps the LID and takes from the LID's what it lacks (name, email, picture, extra info). */
export const FILL_FROM_LID_CONTACT = `UPDATE tickets.contacts c
            SET lid = $4,
                name = CASE WHEN c.name = c.number AND f.name <> f.number THEN f.name ELSE c.name END,
                email = CASE WHEN c.email = '' THEN f.email ELSE c.email END,
                "profilePicUrl" = CASE WHEN c."profilePicUrl" = '' THEN f."profilePicUrl" ELSE c."profilePicUrl" END,
                "extraInfo" = CASE WHEN c."extraInfo" = '[]'::jsonb THEN f."extraInfo" ELSE c."extraInfo" END,
                "updatedAt" = now()
           FROM tickets.contacts f
          WHERE c."companyId" = $1 AND c.id = $2 AND f."companyId" = $1 AND f.id = $3`;

/** The LID's contact, once merged. */
export const DELETE_CONTACT = `DELETE FROM tickets.contacts WHERE "companyId" = $1 AND id = $2`;

/** A contact as it is now. */
export const CONTACT_BY_ID = `SELECT * FROM tickets.contacts WHERE "companyId" = $1 AND id = $2`;

/** Conversations open on the same connection for both contacts: the LID's ticket and the number's. */
export const OPEN_ON_BOTH = `SELECT l.id AS "lidTicket", n.id AS "numberTicket", l."queueId", l."userId"
         FROM tickets.tickets l
         JOIN tickets.tickets n ON n."companyId" = l."companyId" AND n."contactId" = $3 AND n."whatsappId" = l."whatsappId" AND n.status <> 'closed'
        WHERE l."companyId" = $1 AND l."contactId" = $2 AND l.status <> 'closed'
        ORDER BY l.id`;

/** A ticket's messages into another ticket of another contact. */
export const MOVE_TICKET_MESSAGES = `UPDATE tickets.messages SET "ticketId" = $3, "contactId" = $4 WHERE "companyId" = $1 AND "ticketId" = $2`;

/** A ticket's notes into another ticket of another contact. */
export const MOVE_TICKET_NOTES = `UPDATE tickets.ticket_notes SET "ticketId" = $3, "contactId" = $4 WHERE "companyId" = $1 AND "ticketId" = $2`;

/** A ticket's schedules to another ticket. */
export const MOVE_TICKET_SCHEDULES = `UPDATE tickets.schedules SET "ticketId" = $3 WHERE "companyId" = $1 AND "ticketId" = $2`;

/** A ticket's tags onto another ticket. */
export const COPY_TICKET_TAGS = `INSERT INTO tickets.ticket_tags ("ticketId", "tagId", "companyId")
         SELECT $3, "tagId", "companyId" FROM tickets.ticket_tags WHERE "companyId" = $1 AND "ticketId" = $2
         ON CONFLICT DO NOTHING`;

/** The number's ticket after the merge: unread counts added, its last message the newest. */
export const MERGED_TICKET_COUNTS = `UPDATE tickets.tickets n
            SET "unreadMessages" = n."unreadMessages" + l."unreadMessages",
                "lastMessage" = COALESCE((SELECT m.body FROM tickets.messages m WHERE m."ticketId" = n.id
                                           ORDER BY m."sentAt" DESC, m.seq DESC NULLS FIRST, m.id DESC LIMIT 1), n."lastMessage"),
                "updatedAt" = now()
           FROM tickets.tickets l
          WHERE n."companyId" = $1 AND n.id = $3 AND l."companyId" = $1 AND l.id = $2`;

/** The LID's ticket, once merged. */
export const DELETE_TICKET = `DELETE FROM tickets.tickets WHERE "companyId" = $1 AND id = $2`;

/** The rest of a contact's tickets to another contact. */
export const MOVE_CONTACT_TICKETS = `UPDATE tickets.tickets SET "contactId" = $3, "updatedAt" = now() WHERE "companyId" = $1 AND "contactId" = $2`;

/** A contact's messages to another contact. */
export const MOVE_CONTACT_MESSAGES = `UPDATE tickets.messages SET "contactId" = $3 WHERE "companyId" = $1 AND "contactId" = $2`;

/** A contact's notes to another contact. */
export const MOVE_CONTACT_NOTES = `UPDATE tickets.ticket_notes SET "contactId" = $3 WHERE "companyId" = $1 AND "contactId" = $2`;

/** A contact's schedules to another contact. */
export const MOVE_CONTACT_SCHEDULES = `UPDATE tickets.schedules SET "contactId" = $3 WHERE "companyId" = $1 AND "contactId" = $2`;

/** A contact's conversations still going. */
export const OPEN_TICKET_IDS = `SELECT id FROM tickets.tickets WHERE "companyId" = $1 AND "contactId" = $2 AND status <> 'closed'`;

/** The company's merge lock, to the end of the transaction. */
export const MERGE_LOCK = `SELECT pg_advisory_xact_lock($1, $2)`;

/** The numbers of the contacts that carry these LIDs. */
export const NUMBERS_OF_LIDS = `SELECT c."companyId", c.lid, c.number FROM tickets.contacts c
         JOIN unnest($1::int[], $2::varchar[]) AS k(company, lid) ON c."companyId" = k.company AND c.lid = k.lid`;
