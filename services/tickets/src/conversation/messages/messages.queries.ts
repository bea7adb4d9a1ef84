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

/**
 * A reaction set on a message (`$4` emoji; '' takes it away): the reactor's earlier one (same `fromMe` `$5` and
 * `from` `$6`) replaced; `$1`..`$3` find the message: company, and either its id or its connection and WhatsApp id.
 * Answers the message's id, null when no message matched.
 */
const REACTIONS_SET = `contents = jsonb_set(COALESCE(m.contents, '{}'::jsonb), '{reactions}',
              COALESCE((SELECT jsonb_agg(r) FROM jsonb_array_elements(COALESCE(m.contents->'reactions', '[]'::jsonb)) r
                         WHERE NOT ((r->>'fromMe')::bool = $5::bool AND r->>'from' = $6::text)), '[]'::jsonb)
              || CASE WHEN $4::text = '' THEN '[]'::jsonb
                      ELSE jsonb_build_array(jsonb_build_object('emoji', $4::text, 'fromMe', $5::bool, 'from', $6::text)) END),
       "updatedAt" = now()`;

/** REACTIONS_SET on the message of id `$2` of company `$1` (`$3` unused, null). */
export const SET_REACTION_BY_ID = `UPDATE tickets.messages m SET ${REACTIONS_SET}
  WHERE m."companyId" = $1 AND m.id = $2::bigint AND $3::text IS NULL RETURNING m.id`;

/** REACTIONS_SET on the message of WhatsApp id `$3` on connection `$2` of company `$1`. */
export const SET_REACTION_BY_WID = `UPDATE tickets.messages m SET ${REACTIONS_SET}
  WHERE m."companyId" = $1 AND m."whatsappId" = $2::int AND m.wid = $3::text RETURNING m.id, m."ticketId"`;
