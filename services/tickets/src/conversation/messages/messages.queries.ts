import type { DataSource } from 'typeorm';
import { MessageEntity } from '../../database/entities/index.js';

/** The statements of a ticket's messages (MessagesService). */

export const UPDATE_TICKETS_UNREAD_MESSAGES = `UPDATE tickets.tickets SET "unreadMessages" = 0 WHERE id = $1 AND "companyId" = $2`;

export const UPDATE_MESSAGES_READ = `UPDATE tickets.messages SET read = true WHERE "ticketId" = $1 AND "companyId" = $2 AND read = false`;

/** Where the previous page ended: its last message's sentAt (as text, exact), seq and id. */
export interface MessagesKeyset {
  sentAt: string;
  seq: string | number;
  id: string | number;
}

/**
 * A page of a ticket's messages, newest first: after `keyset` when given (the cursor), else from `offset`; each
 * row's exact sentAt as `sortKey` in `raw` (the next cursor).
 */
export function messagesPage(
  db: DataSource,
  companyId: number,
  ticketId: number,
  keyset: MessagesKeyset | undefined,
  offset: number,
  limit: number,
): Promise<{ entities: MessageEntity[]; raw: unknown[] }> {
  const qb = db
    .getRepository(MessageEntity)
    .createQueryBuilder('m')
    .where('m."companyId" = :companyId AND m."ticketId" = :ticketId', { companyId, ticketId })
    .orderBy('m."sentAt"', 'DESC')
    .addOrderBy('m.seq', 'DESC', 'NULLS FIRST')
    .addOrderBy('m.id', 'DESC')
    .addSelect('m."sentAt"::text', 'sortKey')
    .limit(limit);
  if (keyset) {
    qb.andWhere(
      `(m."sentAt" < :s::timestamptz OR (m."sentAt" = :s::timestamptz AND (COALESCE(m.seq, 9223372036854775807) < :q OR (COALESCE(m.seq, 9223372036854775807) = :q AND m.id < :i))))`,
      { s: keyset.sentAt, q: keyset.seq, i: keyset.id },
    );
  } else {
    qb.offset(offset);
  }
  return qb.getRawAndEntities();
}
