/** The SQL of resends.ts (undecryptable messages and their resends), by name. */

/** The resends (of the batch's) whose waiting message is stored: named by company, connection and WhatsApp id. */
export const SELECT_STORED_WAITING = `SELECT m."whatsappId", m.wid FROM unnest($1::int[], $2::int[], $3::text[]) AS k(company, whatsapp, wid)
  JOIN tickets.messages m ON m."whatsappId" = k.whatsapp AND m.wid = k.wid AND m."companyId" = k.company`;

/**
 * A ticket's newest message (store-inbound.sql's rule for its last message: WhatsApp's clock, then arrival, then id).
 * `t` is the ticket.
 */
const NEWEST_MESSAGE = `(SELECT n.%s FROM tickets.messages n WHERE n."companyId" = t."companyId" AND n."ticketId" = t.id
   ORDER BY n."sentAt" DESC, n.seq DESC NULLS FIRST, n.id DESC LIMIT 1)`;

/** Tickets whose newest message waits for its resend show WhatsApp's waiting text as their last message. */
export const MARK_WAITING_LAST = `UPDATE tickets.tickets t SET "lastMessage" = $3
  FROM unnest($1::int[], $2::int[]) AS k(company, id)
 WHERE t."companyId" = k.company AND t.id = k.id AND ${NEWEST_MESSAGE.replace('%s', '"mediaType"')} = 'ciphertext'`;

/**
 * The phone's resend replaces the waiting message in place (still waiting: a replay finds it replaced and changes
 * nothing): its text, media type, file and the message it answers; answers the message's id and ticket.
 */
export const REPLACE_WAITING = `UPDATE tickets.messages m
    SET body = $4, "mediaType" = $5, "mediaUrl" = COALESCE($6, m."mediaUrl"),
        "quotedMsgId" = COALESCE(m."quotedMsgId", (SELECT q.id FROM tickets.messages q WHERE q."whatsappId" = m."whatsappId" AND q.wid = $7)),
        "updatedAt" = now()
  WHERE m."companyId" = $1 AND m."whatsappId" = $2 AND m.wid = $3 AND m."mediaType" = 'ciphertext'
  RETURNING m.id, m."ticketId"`;

/** The ticket's last message becomes the resend's text when the replaced message is its newest. */
export const RESENT_LAST = `UPDATE tickets.tickets t SET "lastMessage" = $3, "updatedAt" = now()
  WHERE t."companyId" = $1 AND t.id = $2 AND ${NEWEST_MESSAGE.replace('%s', 'id')} = $4`;

/** The replaced messages, named by id and company. */
export const SELECT_REPLACED = `SELECT m.* FROM unnest($1::bigint[], $2::int[]) AS k(id, company)
  JOIN tickets.messages m ON m.id = k.id AND m."companyId" = k.company`;
