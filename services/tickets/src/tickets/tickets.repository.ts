import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { PageReads, queryPrepared } from '@wa/database';
import { DataSource, type EntityManager } from 'typeorm';
import { TICKET_SELECT, type TicketRow } from './ticket-view.js';

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
   * A list page. Without a search term its few shapes run with plans kept per connection (PageReads);
   * a search is planned for its term.
   */
  list(sql: string, params: unknown[], planFree: boolean): Promise<TicketRow[]> {
    return planFree ? this.pages.query<TicketRow>(sql, params) : this.db.query(sql, params);
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
