import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `tickets.store_inbound(...)`: a batch of inbound WhatsApp messages stored by one call, so a batch costs
 * one round trip instead of one per statement. Its statements are the set-based ones `storeInbound` used to
 * send one by one, in the same order and with the same locks; in a VOLATILE function each statement takes a fresh snapshot
 * (READ COMMITTED), so each sees what the one before it wrote and what other transactions committed
 * meanwhile, exactly as separate statements did. Contacts arrive deduplicated and sorted; messages in
 * batch order. Answers one row per message: its id, ticket, connection, WhatsApp id, and whether this
 * call inserted it (false: a replay or a redelivery found it stored). The rules its statements carry out
 * (steps 1 to 4 below) are written, with unit specs, in `src/inbound/inbound-rules.ts`, which also builds its
 * arguments; `test/integration/inbound-rules.int-spec.ts` checks that the two agree.
 */
export class StoreInboundFunction1732240000002 implements MigrationInterface {
  name = 'StoreInboundFunction1732240000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION tickets.store_inbound(
        c_company int[], c_number text[], c_name text[], c_group bool[],
        m_company int[], m_number text[], m_whatsapp int[], m_queue int[], m_group bool[],
        m_wid text[], m_body text[], m_from_me bool[], m_media text[], m_sent_at timestamptz[], m_seq bigint[])
      RETURNS TABLE (id bigint, "ticketId" int, "whatsappId" int, wid text, is_new boolean)
      LANGUAGE plpgsql VOLATILE AS $fn$
      #variable_conflict use_column
      DECLARE
        msg_contact int[];
        msg_ticket int[];
        new_ids bigint[];
      BEGIN
        -- 1. contacts, one row per company and number; a push name renames the contact
        INSERT INTO tickets.contacts ("companyId", number, name, "isGroup")
        SELECT u.company, u.number, CASE WHEN u.name = '' THEN u.number ELSE u.name END, u.is_group
          FROM unnest(c_company, c_number, c_name, c_group) AS u(company, number, name, is_group)
        ON CONFLICT ("companyId", number) DO UPDATE
           SET name = EXCLUDED.name, "updatedAt" = now()
         WHERE EXCLUDED.name <> EXCLUDED.number AND tickets.contacts.name IS DISTINCT FROM EXCLUDED.name;

        SELECT array_agg(ct.id ORDER BY u.ord) INTO msg_contact
          FROM unnest(m_company, m_number) WITH ORDINALITY AS u(company, number, ord)
          LEFT JOIN tickets.contacts ct ON ct."companyId" = u.company AND ct.number = u.number;

        -- 2. each conversation's open ticket, created pending when there is none (rows locked in a fixed order)
        INSERT INTO tickets.tickets ("companyId", "contactId", "whatsappId", "queueId", "isGroup", status)
        SELECT p.company, p.contact, p.whatsapp, p.queue, p.is_group, 'pending'
          FROM (SELECT DISTINCT ON (u.contact, u.whatsapp) u.company, u.contact, u.whatsapp, u.queue, u.is_group
                  FROM unnest(m_company, msg_contact, m_whatsapp, m_queue, m_group) WITH ORDINALITY AS u(company, contact, whatsapp, queue, is_group, ord)
                 ORDER BY u.contact, u.whatsapp, u.ord DESC) p
         ORDER BY p.contact, p.whatsapp
        ON CONFLICT ("contactId", "whatsappId") WHERE status <> 'closed' DO NOTHING;

        SELECT array_agg(t.id ORDER BY u.ord) INTO msg_ticket
          FROM unnest(msg_contact, m_whatsapp) WITH ORDINALITY AS u(contact, whatsapp, ord)
          LEFT JOIN tickets.tickets t ON t."contactId" = u.contact AND t."whatsappId" = u.whatsapp AND t.status <> 'closed';

        -- 3. the messages (a message without its ticket fails the NOT NULL: the batch is retried, never dropped)
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

        -- 4. each ticket that got new messages: unread count, last message (the newest by WhatsApp's clock), updatedAt
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

        -- what each message became, new or found
        RETURN QUERY
          SELECT m.id, m."ticketId", m."whatsappId", m.wid::text, m.id = ANY(coalesce(new_ids, '{}'))
            FROM unnest(m_whatsapp, m_wid) WITH ORDINALITY AS u(whatsapp, wid, ord)
            JOIN tickets.messages m ON m."whatsappId" = u.whatsapp AND m.wid = u.wid
           ORDER BY u.ord;
      END
      $fn$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `DROP FUNCTION IF EXISTS tickets.store_inbound(int[], text[], text[], bool[], int[], text[], int[], int[], bool[], text[], text[], bool[], text[], timestamptz[], bigint[])`,
    );
  }
}
