import { queryPrepared } from '@wa/database';
import type { DataSource, EntityManager } from 'typeorm';
import { messageOfRow, type MessageEntity } from '../../database/entities/index.js';
import type { MessageRead, QuotedMessage } from './ticket-view.js';

/** The messages named by (id, company), each with its contact, whatever their number: one statement, one plan. */
export const SELECT_QUOTED_MESSAGES = `SELECT q.*, c.name AS "quotedContactName", c.number AS "quotedContactNumber"
  FROM unnest($1::bigint[], $2::int[]) AS k(id, company)
  JOIN tickets.messages q ON q.id = k.id AND q."companyId" = k.company
  LEFT JOIN tickets.contacts c ON c.id = q."contactId" AND c."companyId" = q."companyId"`;

type QuotedRow = Parameters<typeof messageOfRow>[0] & { quotedContactName: string | null; quotedContactNumber: string | null };

const keyOf = (companyId: number, id: number | string) => `${companyId}|${id}`;

/**
 * The messages `keys` name (a message's quotedMsgId, in its company), each with its contact, by `companyId|id`;
 * one statement for all of them, none when there are none.
 */
export async function quotedMessages(
  target: DataSource | EntityManager,
  keys: ReadonlyArray<{ companyId: number; id: number }>,
): Promise<Map<string, QuotedMessage>> {
  const unique = [...new Map(keys.map((k) => [keyOf(k.companyId, k.id), k])).values()];
  if (unique.length === 0) return new Map();
  const rows = await queryPrepared<QuotedRow>(target, SELECT_QUOTED_MESSAGES, [
    unique.map((k) => String(k.id)),
    unique.map((k) => k.companyId),
  ]);
  return new Map(
    rows.map(({ quotedContactName, quotedContactNumber, ...r }) => {
      const message = messageOfRow(r);
      const contact =
        message.contactId !== null && quotedContactName !== null
          ? { id: message.contactId, name: quotedContactName, number: quotedContactNumber ?? '' }
          : null;
      return [keyOf(message.companyId, message.id), { message, contact }];
    }),
  );
}

/**
 * Each message with the message it answers (`quoted`, what its view shows as `quotedMsg`): one statement for a
 * page or a batch (none when no message answers one), never one per message.
 */
export async function withQuotes<M extends MessageEntity>(
  target: DataSource | EntityManager,
  messages: readonly M[],
): Promise<Array<M & MessageRead>> {
  const keys = messages.filter((m) => m.quotedMsgId !== null).map((m) => ({ companyId: m.companyId, id: Number(m.quotedMsgId) }));
  const found = await quotedMessages(target, keys);
  return messages.map((m) =>
    Object.assign(m, { quoted: m.quotedMsgId === null ? null : (found.get(keyOf(m.companyId, m.quotedMsgId)) ?? null) }),
  );
}
