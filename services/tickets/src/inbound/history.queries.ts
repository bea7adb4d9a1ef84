/** The SQL of history sync's messages in tickets (history.ts). */

/**
 * History messages into the conversations' open tickets: each message (in batch order) whose contact is the company's
 * (by the number it is kept under) and has a ticket on the message's connection that is not closed, inserted there
 * unique per connection and WhatsApp id (a replay inserts nothing), read (no unread raised), with its own time, the
 * message it answers and the ack of one sent from the phone. Answers the inserted rows.
 */
export const INSERT_HISTORY = `WITH h AS (
    SELECT * FROM unnest($1::int[], $2::text[], $3::int[], $4::text[], $5::text[], $6::boolean[], $7::text[], $8::timestamptz[], $9::bigint[], $10::text[])
      WITH ORDINALITY AS u(company, number, whatsapp, wid, body, from_me, media, sent_at, seq, quoted, ord)
  ), target AS (
    SELECT h.*, c.id AS contact, t.id AS ticket
      FROM h
      JOIN tickets.contacts c ON c."companyId" = h.company AND c.number = h.number
      JOIN tickets.tickets t ON t."companyId" = h.company AND t."contactId" = c.id AND t."whatsappId" = h.whatsapp AND t.status <> 'closed'
  )
  INSERT INTO tickets.messages ("companyId", "ticketId", "contactId", "whatsappId", wid, body, "fromMe", "mediaType", "sentAt", seq, ack, read, "quotedMsgId")
  SELECT x.company, x.ticket, x.contact, x.whatsapp, x.wid, x.body, x.from_me, x.media, x.sent_at, x.seq,
         CASE WHEN x.from_me THEN 1 ELSE 0 END, true,
         (SELECT q.id FROM tickets.messages q WHERE q."whatsappId" = x.whatsapp AND q.wid = x.quoted)
    FROM target x
   ORDER BY x.ord
  ON CONFLICT ("whatsappId", wid) DO NOTHING
  RETURNING tickets.messages.id, tickets.messages."ticketId", tickets.messages."companyId", tickets.messages."whatsappId", tickets.messages.wid`;

/** Of the batch's history messages, those already stored (a replay, or a message that came live too), by connection and id. */
export const SELECT_HISTORY_STORED = `SELECT m."whatsappId", m.wid FROM unnest($1::int[], $2::int[], $3::text[]) AS k(company, whatsapp, wid)
  JOIN tickets.messages m ON m."whatsappId" = k.whatsapp AND m.wid = k.wid AND m."companyId" = k.company`;

/**
 * A ticket that got history messages shows its newest message as its last one (store-inbound.sql's rule: WhatsApp's
 * clock, then arrival, then id), only when that newest one is among them: older history changes nothing there.
 */
export const HISTORY_LAST = `UPDATE tickets.tickets t
     SET "lastMessage" = n.body, "updatedAt" = now()
    FROM unnest($1::int[], $2::int[]) AS k(company, id),
         LATERAL (SELECT m.id, m.body FROM tickets.messages m WHERE m."ticketId" = k.id
                   ORDER BY m."sentAt" DESC, m.seq DESC NULLS FIRST, m.id DESC LIMIT 1) n
   WHERE t."companyId" = k.company AND t.id = k.id AND n.id = ANY($3::bigint[])`;

/** The stored history messages, named by id and company. */
export const SELECT_HISTORY_ROWS = `SELECT m.* FROM unnest($1::bigint[], $2::int[]) WITH ORDINALITY AS k(id, company, ord)
  JOIN tickets.messages m ON m.id = k.id AND m."companyId" = k.company ORDER BY k.ord`;
