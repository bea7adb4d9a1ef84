import { queryPrepared } from '@wa/database';
import type { DataSource, EntityManager } from 'typeorm';
import type { ConnectionEntity } from '../database/entities/index.js';
import type { MessageContents } from '../database/entities/message.entity.js';
import { storeInboundArgs, type InboundItem } from './inbound-rules.js';
import { STORE_FILES_AND_QUOTES, STORE_INBOUND } from './store-inbound.queries.js';

export type { InboundItem };

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
 * one transaction; its whole text, commented, is `store-inbound.sql` beside this file): upsert the contacts,
 * find or create each conversation's non-closed ticket (a partial unique index makes a race end in the existing row), insert the messages (unique per
 * connection and WhatsApp id, so a replay stores nothing), then bring each touched ticket's last message,
 * unread count and updatedAt up to date. The rules it follows (which name wins, which queue a new ticket
 * gets, what counts as unread, which message is the last) live in `inbound-rules.ts`, which also builds
 * the call's arguments. The batch travels as arrays, so the call is a prepared statement. `keyed` runs it when
 * it needs no transaction (no files or quotes): on connections that keep its plans (TicketsRepository.keyed).
 */
export async function storeInbound(
  db: DataSource | EntityManager,
  items: InboundItem[],
  connections: Map<number, Pick<ConnectionEntity, 'queueIds'>>,
  keyed?: <T>(sql: string, values: unknown[]) => Promise<T[]>,
): Promise<StoredMessage[]> {
  if (items.length === 0) return [];

  type Row = { id: string; ticketId: number; whatsappId: number; wid: string; is_new: boolean };
  const store = async (q: DataSource | EntityManager): Promise<Row[]> => {
    const args = storeInboundArgs(items, (connectionId) => connections.get(connectionId)?.queueIds);
    const stored = q === db && keyed ? await keyed<Row>(STORE_INBOUND, args) : await queryPrepared<Row>(q, STORE_INBOUND, args);
    await storeFilesAndQuotes(q, items, new Map(stored.map((r) => [`${r.whatsappId}|${r.wid}`, r])));
    return stored;
  };
  // a file or a quote is a second statement: both in one transaction, so nobody reads the message without them
  const extras = items.some(({ data }) => data.media?.key || data.quotedWaMessageId || contentsOf(data));
  const rows = extras ? await db.transaction((tx) => store(tx)) : await store(db);

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
    result.push({
      id: Number(r.id),
      ticketId: r.ticketId,
      companyId: data.companyId,
      whatsappId: r.whatsappId,
      wid: r.wid,
      fromMe: data.fromMe,
      isNew: r.is_new,
    });
  }
  return result;
}

/**
 * What a few messages carry besides text: the stored file (mediaUrl) and the message answered (quotedMsgId,
 * found by its WhatsApp id on the same connection). One more statement, only for a batch that has such
 * messages; written again on a redelivery (after a crash between the two), never overwriting a value.
 */
async function storeFilesAndQuotes(
  db: DataSource | EntityManager,
  items: InboundItem[],
  byKey: Map<string, { id: string }>,
): Promise<void> {
  const ids: string[] = [];
  const urls: Array<string | null> = [];
  const quotes: Array<string | null> = [];
  const contents: Array<string | null> = [];
  for (const { data } of items) {
    const url = data.media?.key ?? null;
    const quoted = data.quotedWaMessageId ?? null;
    const extra = contentsOf(data);
    const row = byKey.get(`${data.connectionId}|${data.waMessageId}`);
    if (!row || (!url && !quoted && !extra)) continue;
    ids.push(row.id);
    urls.push(url);
    quotes.push(quoted);
    contents.push(extra ? JSON.stringify(extra) : null);
  }
  if (ids.length === 0) return;
  await queryPrepared(db, STORE_FILES_AND_QUOTES, [ids, urls, quotes, contents]);
}

/** What an inbound message carries besides text and file (a voice note, a place, contact cards), or null. */
export function contentsOf(data: InboundItem['data']): MessageContents | null {
  const contents: MessageContents = {
    ...(data.voice && data.mediaType === 'audio' ? { voice: true } : {}),
    ...(data.location && data.mediaType === 'locationMessage' ? { location: data.location } : {}),
    ...(data.contacts?.length ? { contacts: data.contacts } : {}),
  };
  return Object.keys(contents).length > 0 ? contents : null;
}
