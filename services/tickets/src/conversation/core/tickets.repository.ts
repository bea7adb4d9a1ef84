import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { PageReads, queryPrepared } from '@wa/database';
import { DataSource, type EntityManager } from 'typeorm';
import { TICKET_COLUMNS, TICKET_JOINS, TICKET_SELECT } from './ticket-row.queries.js';
import type { TicketRow } from './ticket-view.js';

/** The bot's place in a ticket's menu, as the bot leaves it (written with the ticket's last message). */
export interface BotPlace {
  botState: unknown;
  chatbot: boolean;
  queueId: number | null;
}

/**
 * The view of a contact's latest ticket on a connection that is still going, else its latest there updated
 * within `touchedSince` (an interval): the SQL, with each argument an SQL expression (a parameter, a column).
 */
export function latestTicketSql(companyId: string, contactId: string, whatsappId: string, touchedSince: string): string {
  return `${TICKET_SELECT}
    WHERE t."companyId" = ${companyId} AND t."contactId" = ${contactId} AND t."whatsappId" = ${whatsappId}
      AND (t.status <> 'closed' OR t."updatedAt" > now() - ${touchedSince}::interval)
    ORDER BY (t.status <> 'closed') DESC, t."updatedAt" DESC, t.id DESC LIMIT 1`;
}

/**
 * A message went into these tickets: the data-modifying WITH `touched` that sets each one's lastMessage (and
 * updatedAt) and answers the tickets' rows as they now are, its six arrays numbered from `$first` (touchedValues).
 * The ids come from reads already bound to a company. `bot` in touchedValues holds the bot's new place in the menu
 * of tickets it answers (botState, chatbot, queueId), written in the same row version instead of an update of its own.
 */
export function touchedSql(first: number): string {
  const [ids, bodies, bot, state, chatbot, queue] = [0, 1, 2, 3, 4, 5].map((n) => `$${first + n}`);
  return `touched AS (
         UPDATE tickets.tickets x SET "lastMessage" = u.body, "updatedAt" = now(),
                "botState" = CASE WHEN u.bot THEN u.state ELSE x."botState" END,
                chatbot = CASE WHEN u.bot THEN u.chatbot ELSE x.chatbot END,
                "queueId" = CASE WHEN u.bot THEN u.queue ELSE x."queueId" END
           FROM unnest(${ids}::int[], ${bodies}::text[], ${bot}::bool[], ${state}::jsonb[], ${chatbot}::bool[], ${queue}::int[]) AS u(id, body, bot, state, chatbot, queue)
          WHERE x.id = u.id RETURNING x.*)`;
}

/** The six arrays of touchedSql: each ticket's new last message (`lastOf`), and the bot's place where it answered. */
export function touchedValues(lastOf: ReadonlyMap<number, string>, bot?: ReadonlyMap<number, BotPlace>): unknown[] {
  const ids = [...lastOf.keys()];
  const place = ids.map((id) => bot?.get(id));
  return [
    ids,
    [...lastOf.values()],
    place.map((p) => p !== undefined),
    place.map((p) => (p ? JSON.stringify(p.botState) : null)),
    place.map((p) => p?.chatbot ?? false),
    place.map((p) => p?.queueId ?? null),
  ];
}

/** Ticket queries; every one is bound to a company id. */
@Injectable()
export class TicketsRepository implements OnModuleDestroy {
  private readonly pages: PageReads;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.pages = new PageReads(db);
  }

  onModuleDestroy(): Promise<void> {
    return this.pages.close();
  }

  /**
   * A statement whose plan does not depend on its values (rows named by their keys), on the connections that
   * keep one plan per statement (PageReads). Never from inside a transaction: one that holds row locks and
   * waits here for a connection can wait on statements that wait for its locks (the pool is small).
   */
  keyed<T>(sql: string, values: unknown[]): Promise<T[]> {
    return this.pages.query<T>(sql, values);
  }

  async findById(companyId: number, id: number, manager: EntityManager = this.db.manager): Promise<TicketRow | null> {
    const rows = await manager.query(`${TICKET_SELECT} WHERE t."companyId" = $1 AND t.id = $2`, [companyId, id]);
    return rows[0] ?? null;
  }

  async findByUuid(companyId: number, uuid: string): Promise<TicketRow | null> {
    const rows = await this.db.query(`${TICKET_SELECT} WHERE t."companyId" = $1 AND t.uuid = $2`, [companyId, uuid]);
    return rows[0] ?? null;
  }

  async findByIds(companyId: number, ids: number[], manager: EntityManager = this.db.manager): Promise<TicketRow[]> {
    if (ids.length === 0) return [];
    return queryPrepared<TicketRow>(manager, `${TICKET_SELECT} WHERE t."companyId" = $1 AND t.id = ANY($2::int[])`, [companyId, ids]);
  }

  /**
   * Tickets of several companies at once, each named by its company and id (one statement): in `manager`'s
   * transaction, or else as they are committed, with a kept plan (keyed). `also`: more columns of the ticket
   * (alias t) read with them, as SQL of this service's own (`… AS "name"`), answered as the row's `Extra` fields.
   */
  async findByKeys<Extra extends object = object>(
    keys: Iterable<{ companyId: number; id: number }>,
    manager?: EntityManager,
    also?: string,
  ): Promise<Array<TicketRow & Extra>> {
    const unique = [...new Map([...keys].map((k) => [`${k.companyId}|${k.id}`, k])).values()];
    if (unique.length === 0) return [];
    const columns = also ? `${TICKET_COLUMNS}, ${also}` : TICKET_COLUMNS;
    const sql = `SELECT ${columns} FROM tickets.tickets t ${TICKET_JOINS} JOIN unnest($1::int[], $2::int[]) AS k(company, id) ON t."companyId" = k.company AND t.id = k.id`;
    const values = [unique.map((k) => k.companyId), unique.map((k) => k.id)];
    return manager ? queryPrepared<TicketRow & Extra>(manager, sql, values) : this.keyed<TicketRow & Extra>(sql, values);
  }

  /**
   * The contact's latest ticket on a connection that is still going, else its latest there updated since
   * `touchedSince`; null when none.
   */
  async latestFor(
    manager: EntityManager,
    companyId: number,
    contactId: number,
    whatsappId: number,
    touchedSince: string,
  ): Promise<TicketRow | null> {
    const rows = await queryPrepared<TicketRow>(manager, latestTicketSql('$1', '$2', '$3', '$4'), [
      companyId,
      contactId,
      whatsappId,
      touchedSince,
    ]);
    return rows[0] ?? null;
  }

  /**
   * A list page. Without a search term its few shapes run with plans kept per connection (PageReads);
   * a search is planned for its term.
   */
  list(sql: string, params: unknown[], planFree: boolean): Promise<TicketRow[]> {
    return planFree ? this.pages.query<TicketRow>(sql, params) : this.db.query(sql, params);
  }

  /** The non-closed ticket of a contact on a connection, if any (at most one: a unique index says so). */
  async openFor(
    companyId: number,
    contactId: number,
    whatsappId: number,
    manager: EntityManager = this.db.manager,
  ): Promise<TicketRow | null> {
    const rows = await manager.query(
      `${TICKET_SELECT} WHERE t."companyId" = $1 AND t."contactId" = $2 AND t."whatsappId" = $3 AND t.status <> 'closed'`,
      [companyId, contactId, whatsappId],
    );
    return rows[0] ?? null;
  }
}
