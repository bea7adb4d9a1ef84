-- tickets.store_inbound: a batch of inbound WhatsApp messages stored by one call (one round trip, one
-- transaction), called by storeInbound (store-inbound.ts) with the arrays inbound-rules.ts builds.
--
-- This file is the function's current text, whole. The database gets it from a migration that keeps a frozen
-- copy of it (the latest is 1732240000046-store-inbound-writes-less.ts): to change the function, change this
-- file AND add a migration with the new text; test/store-inbound-text.int-spec.ts fails until both agree.
--
-- Arguments (parallel arrays):
--   c_*  the batch's contacts, deduplicated and sorted by company and number:
--        c_company, c_number, c_name (the push name, '' when none), c_group
--   m_*  the batch's messages, in batch order:
--        m_company, m_number (the contact's), m_whatsapp (the connection), m_queue (the queue a new ticket
--        gets: queueForNewTicket, null for none), m_group, m_wid (WhatsApp's message id), m_body, m_from_me,
--        m_media (the media type), m_sent_at (WhatsApp's clock), m_seq (the inbound event's JetStream sequence:
--        breaks ties between messages of the same second, in arrival order)
-- Answers one row per message, in batch order: its id, ticket, connection, WhatsApp id, and whether this call
-- inserted it (false: a replay or a redelivery found it stored). A message that cannot be stored fails the whole
-- call, so the batch is retried, never partly dropped.
--
-- The rules its statements carry out (which name wins, which queue a new ticket gets, what counts as unread,
-- which message is the last) are written, with unit specs, in inbound-rules.ts;
-- test/integration/inbound-rules.int-spec.ts checks that the two agree.
--
-- Statements and snapshots: VOLATILE (the default), so each statement takes a fresh snapshot (READ COMMITTED)
-- and sees what the one before it wrote and what other transactions committed meanwhile, as separate
-- statements would. Rows are written in a fixed order (contacts sorted, tickets by contact and connection),
-- so two batches never wait on each other in a loop.
--
-- Plans (SET clauses):
--   plan_cache_mode = force_generic_plan  every statement keeps one plan across calls: small batches come
--       hundreds of times a second, and planning the statements on each call cost PostgreSQL more than running
--       them (with 'auto' it still planned all eight on every call, a plan for the actual arrays always looking
--       cheaper than the generic one). Every statement reaches its rows through a unique index.
--   enable_seqscan = off  a plan kept since a table was small still reaches rows by index once it has grown.
--   enable_bitmapscan = off  no plan reads the company's contacts, or every open ticket, through a bitmap: both
--       cost in proportion to the table, for every batch.
-- The open ticket's lookup (step 2) is an EXECUTE, planned on each call: without statistics (a fresh database,
-- autovacuum off) a kept plan of it did not pick its unique index. The contacts' ids come back from their
-- upsert itself (step 1), through the unique index the upsert checks conflicts on, for the same reason (a kept
-- plan made while the table is small reads a company's contacts by another index: measured, issue 44).
CREATE OR REPLACE FUNCTION tickets.store_inbound(c_company integer[], c_number text[], c_name text[], c_group boolean[], m_company integer[], m_number text[], m_whatsapp integer[], m_queue integer[], m_group boolean[], m_wid text[], m_body text[], m_from_me boolean[], m_media text[], m_sent_at timestamp with time zone[], m_seq bigint[])
 RETURNS TABLE(id bigint, "ticketId" integer, "whatsappId" integer, wid text, is_new boolean)
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
 SET enable_seqscan TO 'off'
 SET enable_bitmapscan TO 'off'
AS $function$
#variable_conflict use_column
DECLARE
  msg_contact int[];  -- each message's contact id, in batch order
  msg_ticket int[];   -- each message's open ticket id, in batch order
  new_ids bigint[];   -- the messages this call inserted
  -- each message's open ticket (contact and connection), in batch order
  open_tickets CONSTANT text := 'SELECT array_agg(t.id ORDER BY u.ord)
    FROM unnest($1::int[], $2::int[]) WITH ORDINALITY AS u(contact, whatsapp, ord)
    LEFT JOIN tickets.tickets t ON t."contactId" = u.contact AND t."whatsappId" = u.whatsapp AND t.status <> ''closed''';
BEGIN
  -- 1. Contacts: one row per company and number. A push name renames the contact (not an empty one, nor the
  --    number itself); a contact not renamed is written back as it is (a HOT update), so that every contact of
  --    the batch comes back from the upsert with its id.
  WITH up AS (
    INSERT INTO tickets.contacts AS ct ("companyId", number, name, "isGroup")
    SELECT u.company, u.number, CASE WHEN u.name = '' THEN u.number ELSE u.name END, u.is_group
      FROM unnest(c_company, c_number, c_name, c_group) AS u(company, number, name, is_group)
    ON CONFLICT ("companyId", number) DO UPDATE
       SET name = CASE WHEN EXCLUDED.name <> EXCLUDED.number AND ct.name IS DISTINCT FROM EXCLUDED.name THEN EXCLUDED.name ELSE ct.name END,
           "updatedAt" = CASE WHEN EXCLUDED.name <> EXCLUDED.number AND ct.name IS DISTINCT FROM EXCLUDED.name THEN now() ELSE ct."updatedAt" END
    RETURNING ct.id, ct."companyId", ct.number)
  SELECT array_agg(up.id ORDER BY u.ord) INTO msg_contact
    FROM unnest(m_company, m_number) WITH ORDINALITY AS u(company, number, ord)
    LEFT JOIN up ON up."companyId" = u.company AND up.number = u.number;

  -- 2. Each conversation (contact and connection) has one ticket that is not closed: each message's is looked up
  --    (planned on each call, see above). A conversation without one gets it created pending, with the queue the
  --    conversation's last message of the batch names (m_queue); a joined ticket keeps its queue. A partial unique
  --    index makes a race with another batch end in the existing row; rows are inserted in a fixed order, and the
  --    lookup is made again only when a ticket was missing.
  EXECUTE open_tickets INTO msg_ticket USING msg_contact, m_whatsapp;

  IF array_position(msg_ticket, NULL) IS NOT NULL THEN
    INSERT INTO tickets.tickets ("companyId", "contactId", "whatsappId", "queueId", "isGroup", status)
    SELECT p.company, p.contact, p.whatsapp, p.queue, p.is_group, 'pending'
      FROM (SELECT DISTINCT ON (u.contact, u.whatsapp) u.company, u.contact, u.whatsapp, u.queue, u.is_group
              FROM unnest(m_company, msg_contact, m_whatsapp, m_queue, m_group, msg_ticket)
                   WITH ORDINALITY AS u(company, contact, whatsapp, queue, is_group, ticket, ord)
             WHERE u.ticket IS NULL
             ORDER BY u.contact, u.whatsapp, u.ord DESC) p
     ORDER BY p.contact, p.whatsapp
    ON CONFLICT ("contactId", "whatsappId") WHERE status <> 'closed' DO NOTHING;

    EXECUTE open_tickets INTO msg_ticket USING msg_contact, m_whatsapp;
  END IF;

  -- 3. The messages, unique per connection and WhatsApp id (a replay stores nothing). One's own message (sent
  --    from the phone) arrives already read, with the ack of a sent message. A message without its ticket fails
  --    the NOT NULL: the batch is retried, never dropped.
  WITH ins AS (
    INSERT INTO tickets.messages ("companyId", "ticketId", "contactId", "whatsappId", wid, body, "fromMe", "mediaType", "sentAt", seq, ack, read)
    SELECT u.company, u.ticket, u.contact, u.whatsapp, u.wid, u.body, u.from_me, u.media, u.sent_at, u.seq,
           CASE WHEN u.from_me THEN 1 ELSE 0 END, u.from_me
      FROM unnest(m_company, msg_ticket, msg_contact, m_whatsapp, m_wid, m_body, m_from_me, m_media, m_sent_at, m_seq)
           WITH ORDINALITY AS u(company, ticket, contact, whatsapp, wid, body, from_me, media, sent_at, seq, ord)
     ORDER BY u.ord
    ON CONFLICT ("whatsappId", wid) DO NOTHING
    RETURNING tickets.messages.id, tickets.messages."ticketId", tickets.messages."fromMe")
  SELECT array_agg(ins.id) INTO new_ids FROM ins;

  -- 4. Each ticket that got new messages: its unread count (the new ones not sent by us), its last message (the
  --    newest by WhatsApp's clock; in the same instant the later arrival, a message without seq counting as the
  --    latest; then the higher id) and updatedAt. Tickets are updated in id order.
  UPDATE tickets.tickets t
     SET "unreadMessages" = t."unreadMessages" + x.unread,
         "lastMessage" = COALESCE((SELECT m.body FROM tickets.messages m WHERE m."ticketId" = t.id
                                    ORDER BY m."sentAt" DESC, m.seq DESC NULLS FIRST, m.id DESC LIMIT 1), t."lastMessage"),
         "updatedAt" = now()
    FROM (SELECT m."ticketId" AS ticket, count(*) FILTER (WHERE NOT m."fromMe") AS unread
            FROM tickets.messages m WHERE m.id = ANY(coalesce(new_ids, '{}'))
           GROUP BY m."ticketId"
           ORDER BY m."ticketId") x
   WHERE t.id = x.ticket;

  -- What each message became, new or found, in batch order.
  RETURN QUERY
    SELECT m.id, m."ticketId", m."whatsappId", m.wid::text, m.id = ANY(coalesce(new_ids, '{}'))
      FROM unnest(m_whatsapp, m_wid) WITH ORDINALITY AS u(whatsapp, wid, ord)
      JOIN tickets.messages m ON m."whatsappId" = u.whatsapp AND m.wid = u.wid
     ORDER BY u.ord;
END
$function$;
