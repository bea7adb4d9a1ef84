import type { WaInboundMessage } from '@wa/contracts';
import { queryPrepared } from '@wa/database';
import type { DataSource, EntityManager } from 'typeorm';
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
 * Stores a batch of inbound WhatsApp messages with one call of `tickets.store_inbound` (one round trip,
 * one transaction; see its migration): upsert the contacts, find or create each conversation's non-closed
 * ticket (a partial unique index makes a race end in the existing row), insert the messages (unique per
 * connection and WhatsApp id, so a replay stores nothing), then bring each touched ticket's last message,
 * unread count and updatedAt up to date. The batch travels as arrays, so the call is a prepared statement.
 */
export async function storeInbound(db: DataSource | EntityManager, items: InboundItem[], connections: Map<number, Pick<ConnectionEntity, 'queueIds'>>): Promise<StoredMessage[]> {
  if (items.length === 0) return [];

  // contacts, one row per company and number, in a fixed order (parallel batches lock them alike);
  // the last push name in the batch renames the contact
  const contacts = new Map<string, { companyId: number; number: string; name: string; isGroup: boolean }>();
  for (const { data } of items) {
    const key = `${data.companyId}|${data.from}`;
    const prev = contacts.get(key);
    const name = !data.fromMe && data.fromName?.trim() ? data.fromName.trim().slice(0, 100) : '';
    contacts.set(key, { companyId: data.companyId, number: data.from, name: name || prev?.name || '', isGroup: data.isGroup });
  }
  const c = [...contacts.values()].sort((a, b) => a.companyId - b.companyId || (a.number < b.number ? -1 : a.number > b.number ? 1 : 0));
  const queueOf = (connectionId: number) => {
    const queueIds = connections.get(connectionId)?.queueIds ?? [];
    return queueIds.length === 1 ? queueIds[0] : null;
  };
  const rows: Array<{ id: string; ticketId: number; whatsappId: number; wid: string; is_new: boolean }> = await queryPrepared(
    db,
    `SELECT * FROM tickets.store_inbound($1::int[], $2::text[], $3::text[], $4::bool[],
       $5::int[], $6::text[], $7::int[], $8::int[], $9::bool[], $10::text[], $11::text[], $12::bool[], $13::text[], $14::timestamptz[], $15::bigint[])`,
    [
      c.map((x) => x.companyId),
      c.map((x) => x.number),
      c.map((x) => x.name),
      c.map((x) => x.isGroup),
      items.map(({ data }) => data.companyId),
      items.map(({ data }) => data.from),
      items.map(({ data }) => data.connectionId),
      items.map(({ data }) => queueOf(data.connectionId)),
      items.map(({ data }) => data.isGroup),
      items.map(({ data }) => data.waMessageId),
      items.map(({ data }) => data.body ?? ''),
      items.map(({ data }) => data.fromMe),
      items.map(({ data }) => data.mediaType ?? 'chat'),
      items.map(({ data }) => new Date(data.timestamp || Date.now()).toISOString()),
      items.map(({ seq }) => seq),
    ],
  );

  const byKey = new Map(rows.map((r) => [`${r.whatsappId}|${r.wid}`, r]));
  const seen = new Set<string>();
  const result: StoredMessage[] = [];
  for (const { data } of items) {
    const key = `${data.connectionId}|${data.waMessageId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const r = byKey.get(key);
    // every message is stored or found: the function fails the whole batch otherwise
    if (!r) throw new Error(`inbound message ${key} neither stored nor found`);
    result.push({ id: Number(r.id), ticketId: r.ticketId, companyId: data.companyId, whatsappId: r.whatsappId, wid: r.wid, fromMe: data.fromMe, isNew: r.is_new });
  }
  return result;
}
