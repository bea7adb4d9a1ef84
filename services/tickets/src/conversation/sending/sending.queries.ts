import { queryPrepared } from '@wa/database';
import type { EntityManager } from 'typeorm';
import { MessageEntity, messageOfRow } from '../../database/entities/index.js';
import { TICKET_COLUMNS, TICKET_JOINS } from '../core/ticket-row.queries.js';
import type { TicketRow } from '../core/ticket-view.js';
import { touchedSql, touchedValues, type BotPlace } from '../core/tickets.repository.js';

/** What an outgoing message is stored with; the rest are the table's defaults. */
export type OutgoingRow = Pick<
  MessageEntity,
  | 'companyId'
  | 'ticketId'
  | 'contactId'
  | 'whatsappId'
  | 'wid'
  | 'body'
  | 'fromMe'
  | 'mediaType'
  | 'mediaUrl'
  | 'ack'
  | 'read'
  | 'sentAt'
  | 'quotedMsgId'
  | 'isBot'
  | 'viaApi'
  | 'contents'
>;

/**
 * Outgoing messages stored, ids taken in the given order, and their tickets touched (touchedSql: the last message,
 * the bot's place), in one statement whose text never changes (its plan is kept, whatever their number). Answers
 * the stored rows in the given order, and the touched tickets as they now are (as JSON, on the first row: one
 * statement answers one shape of row).
 */
export async function storeOutgoing(
  tx: EntityManager,
  rows: readonly OutgoingRow[],
  lastOf: ReadonlyMap<number, string>,
  botPlaces: ReadonlyMap<number, BotPlace> | undefined,
): Promise<{ saved: MessageEntity[]; updated: TicketRow[] }> {
  const col = <T>(f: (r: OutgoingRow) => T) => rows.map(f);
  const stored = await queryPrepared<Parameters<typeof messageOfRow>[0] & { touchedTickets: TicketRow[] | null }>(
    tx,
    `WITH ins AS (
       INSERT INTO tickets.messages ("companyId", "ticketId", "contactId", "whatsappId", wid, body, "fromMe", "mediaType", "mediaUrl", ack, read, "sentAt", "quotedMsgId", "isBot", "viaApi", contents)
       SELECT company, ticket, contact, whatsapp, wid, body, "fromMe", "mediaType", "mediaUrl", ack, read, "sentAt", quoted, bot, api, contents
         FROM unnest($1::int[], $2::int[], $3::int[], $4::int[], $5::varchar[], $6::text[], $7::bool[], $8::varchar[], $9::text[], $10::smallint[], $11::bool[],
                     $12::timestamptz[], $13::bigint[], $14::bool[], $15::bool[], $16::jsonb[])
              WITH ORDINALITY AS u(company, ticket, contact, whatsapp, wid, body, "fromMe", "mediaType", "mediaUrl", ack, read, "sentAt", quoted, bot, api, contents, ord)
        ORDER BY ord
       RETURNING *),
     ${touchedSql(17)},
     views AS (SELECT json_agg(v) AS tickets FROM (SELECT ${TICKET_COLUMNS} FROM touched t ${TICKET_JOINS}) v)
     SELECT ins.*, views.tickets AS "touchedTickets" FROM ins LEFT JOIN views ON ins.id = (SELECT min(id) FROM ins)`,
    [
      col((r) => r.companyId),
      col((r) => r.ticketId),
      col((r) => r.contactId),
      col((r) => r.whatsappId),
      col((r) => r.wid),
      col((r) => r.body),
      col((r) => r.fromMe),
      col((r) => r.mediaType),
      col((r) => r.mediaUrl),
      col((r) => r.ack),
      col((r) => r.read),
      col((r) => r.sentAt),
      col((r) => r.quotedMsgId),
      col((r) => r.isBot),
      col((r) => r.viaApi),
      col((r) => (r.contents ? JSON.stringify(r.contents) : null)),
      ...touchedValues(lastOf, botPlaces),
    ],
  );
  // JSON gives the timestamps as text: the rows as a read of the tickets gives them
  const updated = (stored.find((r) => r.touchedTickets)?.touchedTickets ?? []).map((t) => ({
    ...t,
    createdAt: new Date(t.createdAt),
    updatedAt: new Date(t.updatedAt),
  }));
  // each row back to its item by its WhatsApp id (new and unique for each)
  const byWid = new Map(stored.map(({ touchedTickets: _, ...r }) => [r.wid, messageOfRow(r)]));
  return { saved: rows.map((r) => byWid.get(r.wid) as MessageEntity), updated };
}

/**
 * A text alone into a ticket read moments ago, in one statement (ConversationSender.sendTextAtOnce): the ticket's
 * last message if its row is still the version read ($5, its xmin), the message with the id taken then ($6), and
 * the outbox rows (`outboxInsert`, the outbox's insertSql numbered from $10), or nothing.
 */
export function textAtOnceSql(outboxInsert: string): string {
  return `WITH t AS (
         UPDATE tickets.tickets x SET "lastMessage" = $3, "updatedAt" = $4
          WHERE x.id = $1 AND x."companyId" = $2 AND x.xmin::text = $5
         RETURNING x.id, x."contactId", x."whatsappId"),
       m AS (
         INSERT INTO tickets.messages (id, "companyId", "ticketId", "contactId", "whatsappId", wid, body, "fromMe", "mediaType", ack, read, "isBot", "viaApi", "sentAt", "createdAt", "updatedAt")
         SELECT $6, $2, t.id, t."contactId", t."whatsappId", $7, $3, true, 'chat', 0, true, $8, $9, $4, $4, $4 FROM t
         RETURNING id),
       o AS (${outboxInsert} WHERE EXISTS (SELECT 1 FROM m) RETURNING id)
       SELECT ARRAY(SELECT id::text FROM o ORDER BY id) AS "outboxIds" FROM m`;
}
