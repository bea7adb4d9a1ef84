import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryPrepared } from '@wa/database';
import { DataSource, type EntityManager } from 'typeorm';
import { TICKET_SELECT, type TicketRow } from './ticket-view.js';

/** Ticket queries; every one is bound to a company id. */
@Injectable()
export class TicketsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

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

  /** A list page; without a search term its few shapes run as prepared statements (no planning per request). */
  list(sql: string, params: unknown[], prepared: boolean): Promise<TicketRow[]> {
    return prepared ? queryPrepared<TicketRow>(this.db, sql, params) : this.db.query(sql, params);
  }

  /** The non-closed ticket of a contact on a connection, if any (at most one: a unique index says so). */
  async openFor(companyId: number, contactId: number, whatsappId: number, manager: EntityManager = this.db.manager): Promise<TicketRow | null> {
    const rows = await manager.query(
      `${TICKET_SELECT} WHERE t."companyId" = $1 AND t."contactId" = $2 AND t."whatsappId" = $3 AND t.status <> 'closed'`,
      [companyId, contactId, whatsappId],
    );
    return rows[0] ?? null;
  }
}
