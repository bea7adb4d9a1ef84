import type { WaInboundMessage } from '@wa/contracts';
import { queryPrepared } from '@wa/database';
import type { EntityManager } from 'typeorm';
import type { ConnectionEntity } from '../database/entities/index.js';

export interface InboundItem {
  data: WaInboundMessage;
  /** the JetStream sequence: breaks ties between messages of the same second, in arrival order */
  seq: number;
}

export interface StoredMessage {
  id: number;
  ticketId: number;
  companyId: number;
  whatsappId: number;
  wid: string;
  fromMe: boolean;
  /** false when the message was already stored (a replay or a redelivery) */
  isNew: boolean;
}

/**
 * Stores a batch of inbound WhatsApp messages in the caller's transaction with set-based statements
 * (a handful of statements for up to a hundred messages): upsert the contacts, find or create each
 * conversation's non-closed ticket (a partial unique index makes a race end in the existing row), insert
 * the messages (unique per connection and WhatsApp id, so a replay stores nothing), then bring each
 * touched ticket's last message, unread count and updatedAt up to date. Each statement's text is fixed
 * (the batch travels as arrays), so each runs as a prepared statement: planned once per connection.
 */
export async function storeInbound(tx: EntityManager, items: InboundItem[], connections: Map<number, ConnectionEntity>): Promise<StoredMessage[]> {
  if (items.length === 0) return [];

  // 1. contacts, one row per company and number; the contact's push name renames it
  const contacts = new Map<string, { companyId: number; number: string; name: string; isGroup: boolean }>();
  for (const { data } of items) {
    const key = `${data.companyId}|${data.from}`;
    const prev = contacts.get(key);
    const name = !data.fromMe && data.fromName?.trim() ? data.fromName.trim().slice(0, 100) : '';
    contacts.set(key, { companyId: data.companyId, number: data.from, name: name || prev?.name || '', isGroup: data.isGroup });
  }
  // a fixed order of row locks keeps parallel batches from deadlocking
  const c = [...contacts.values()].sort((a, b) => a.companyId - b.companyId || (a.number < b.number ? -1 : a.number > b.number ? 1 : 0));
  await queryPrepared(tx, 
    `INSERT INTO tickets.contacts ("companyId", number, name, "isGroup")
     SELECT u.company, u.number, CASE WHEN u.name = '' THEN u.number ELSE u.name END, u.is_group
       FROM unnest($1::int[], $2::text[], $3::text[], $4::bool[]) AS u(company, number, name, is_group)
     ON CONFLICT ("companyId", number) DO UPDATE
        SET name = EXCLUDED.name, "updatedAt" = now()
      WHERE EXCLUDED.name <> EXCLUDED.number AND tickets.contacts.name IS DISTINCT FROM EXCLUDED.name`,
    [c.map((x) => x.companyId), c.map((x) => x.number), c.map((x) => x.name), c.map((x) => x.isGroup)],
  );
  const contactRows: Array<{ id: number; companyId: number; number: string }> = await queryPrepared(tx, 
    `SELECT ct.id, ct."companyId", ct.number FROM tickets.contacts ct
       JOIN unnest($1::int[], $2::text[]) AS u(company, number) ON ct."companyId" = u.company AND ct.number = u.number`,
    [c.map((x) => x.companyId), c.map((x) => x.number)],
  );
  const contactId = new Map(contactRows.map((r) => [`${r.companyId}|${r.number}`, r.id]));

  // 2. the conversation's open ticket, created pending when there is none
  const pairs = new Map<string, { companyId: number; contactId: number; whatsappId: number; queueId: number | null; isGroup: boolean }>();
  for (const { data } of items) {
    const cid = contactId.get(`${data.companyId}|${data.from}`) as number;
    const queueIds = connections.get(data.connectionId)?.queueIds ?? [];
    pairs.set(`${cid}|${data.connectionId}`, { companyId: data.companyId, contactId: cid, whatsappId: data.connectionId, queueId: queueIds.length === 1 ? queueIds[0] : null, isGroup: data.isGroup });
  }
  const p = [...pairs.values()].sort((a, b) => a.contactId - b.contactId || a.whatsappId - b.whatsappId);
  const pairParams = [p.map((x) => x.companyId), p.map((x) => x.contactId), p.map((x) => x.whatsappId), p.map((x) => x.queueId), p.map((x) => x.isGroup)];
  await queryPrepared(tx, 
    `INSERT INTO tickets.tickets ("companyId", "contactId", "whatsappId", "queueId", "isGroup", status)
     SELECT u.company, u.contact, u.whatsapp, u.queue, u.is_group, 'pending'
       FROM unnest($1::int[], $2::int[], $3::int[], $4::int[], $5::bool[]) AS u(company, contact, whatsapp, queue, is_group)
     ON CONFLICT ("contactId", "whatsappId") WHERE status <> 'closed' DO NOTHING`,
    pairParams,
  );
  const ticketRows: Array<{ id: number; contactId: number; whatsappId: number }> = await queryPrepared(tx, 
    `SELECT t.id, t."contactId", t."whatsappId" FROM tickets.tickets t
       JOIN unnest($1::int[], $2::int[]) AS u(contact, whatsapp) ON t."contactId" = u.contact AND t."whatsappId" = u.whatsapp
      WHERE t.status <> 'closed'`,
    [p.map((x) => x.contactId), p.map((x) => x.whatsappId)],
  );
  const ticketId = new Map(ticketRows.map((r) => [`${r.contactId}|${r.whatsappId}`, r.id]));

  // 3. the messages; a replay or a redelivery inserts nothing
  const rows = items.map(({ data, seq }) => {
    const cid = contactId.get(`${data.companyId}|${data.from}`) as number;
    return {
      companyId: data.companyId,
      ticketId: ticketId.get(`${cid}|${data.connectionId}`) as number,
      contactId: cid,
      whatsappId: data.connectionId,
      wid: data.waMessageId,
      body: data.body ?? '',
      fromMe: data.fromMe,
      mediaType: data.mediaType ?? 'chat',
      sentAt: new Date(data.timestamp || Date.now()).toISOString(),
      seq,
    };
  });
  const inserted: Array<{ id: string; wid: string; whatsappId: number }> = await queryPrepared(tx, 
    `INSERT INTO tickets.messages ("companyId", "ticketId", "contactId", "whatsappId", wid, body, "fromMe", "mediaType", "sentAt", seq, ack, read)
     SELECT u.company, u.ticket, u.contact, u.whatsapp, u.wid, u.body, u.from_me, u.media, u.sent_at, u.seq,
            CASE WHEN u.from_me THEN 1 ELSE 0 END, u.from_me
       FROM unnest($1::int[], $2::int[], $3::int[], $4::int[], $5::text[], $6::text[], $7::bool[], $8::text[], $9::timestamptz[], $10::bigint[])
            AS u(company, ticket, contact, whatsapp, wid, body, from_me, media, sent_at, seq)
     ON CONFLICT ("whatsappId", wid) DO NOTHING
     RETURNING id, wid, "whatsappId"`,
    [
      rows.map((r) => r.companyId),
      rows.map((r) => r.ticketId),
      rows.map((r) => r.contactId),
      rows.map((r) => r.whatsappId),
      rows.map((r) => r.wid),
      rows.map((r) => r.body),
      rows.map((r) => r.fromMe),
      rows.map((r) => r.mediaType),
      rows.map((r) => r.sentAt),
      rows.map((r) => r.seq),
    ],
  );
  const newIds = new Map(inserted.map((r) => [`${r.whatsappId}|${r.wid}`, Number(r.id)]));

  // 4. each ticket that got new messages: unread count, last message (the newest by WhatsApp's clock), updatedAt
  const unread = new Map<number, number>();
  for (const r of rows) {
    if (!newIds.has(`${r.whatsappId}|${r.wid}`)) continue;
    unread.set(r.ticketId, (unread.get(r.ticketId) ?? 0) + (r.fromMe ? 0 : 1));
  }
  if (unread.size > 0) {
    await queryPrepared(tx, 
      `UPDATE tickets.tickets t
          SET "unreadMessages" = t."unreadMessages" + u.unread,
              "lastMessage" = COALESCE((SELECT m.body FROM tickets.messages m WHERE m."ticketId" = t.id
                                         ORDER BY m."sentAt" DESC, m.seq DESC NULLS FIRST, m.id DESC LIMIT 1), t."lastMessage"),
              "updatedAt" = now()
         FROM unnest($1::int[], $2::int[]) AS u(ticket, unread)
        WHERE t.id = u.ticket`,
      [[...unread.keys()], [...unread.values()]],
    );
  }

  // what was already stored is looked up so its events can be published again (after a crash)
  const old = rows.filter((r) => !newIds.has(`${r.whatsappId}|${r.wid}`));
  const oldIds = new Map<string, { id: number; ticketId: number }>();
  if (old.length > 0) {
    const found: Array<{ id: string; wid: string; whatsappId: number; ticketId: number }> = await queryPrepared(tx, 
      `SELECT m.id, m.wid, m."whatsappId", m."ticketId" FROM tickets.messages m
         JOIN unnest($1::int[], $2::text[]) AS u(whatsapp, wid) ON m."whatsappId" = u.whatsapp AND m.wid = u.wid`,
      [old.map((r) => r.whatsappId), old.map((r) => r.wid)],
    );
    for (const f of found) oldIds.set(`${f.whatsappId}|${f.wid}`, { id: Number(f.id), ticketId: f.ticketId });
  }

  const seen = new Set<string>();
  const result: StoredMessage[] = [];
  for (const r of rows) {
    const key = `${r.whatsappId}|${r.wid}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const id = newIds.get(key);
    if (id !== undefined) result.push({ id, ticketId: r.ticketId, companyId: r.companyId, whatsappId: r.whatsappId, wid: r.wid, fromMe: r.fromMe, isNew: true });
    else {
      const o = oldIds.get(key);
      if (o) result.push({ id: o.id, ticketId: o.ticketId, companyId: r.companyId, whatsappId: r.whatsappId, wid: r.wid, fromMe: r.fromMe, isNew: false });
    }
  }
  return result;
}
