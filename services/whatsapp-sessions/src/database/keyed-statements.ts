import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { PageReads } from '@wa/database';
import { DataSource } from 'typeorm';

/**
 * The session runtime's hot statements (a batch of sends recorded and marked sent, acks raised, the sandbox
 * phone's records): rows named by their keys, run outside transactions on connections that keep one plan per
 * statement (PageReads). Planning them, and PostgreSQL's foreign-key check of every row they insert, cost
 * more than running them on the data source's connections, which plan every run for its values.
 */
@Injectable()
export class KeyedStatements implements OnModuleDestroy {
  private readonly pool: PageReads;

  constructor(@InjectDataSource() db: DataSource) {
    this.pool = new PageReads(db, 4);
  }

  query<T>(sql: string, values: unknown[]): Promise<T[]> {
    return this.pool.query<T>(sql, values);
  }

  onModuleDestroy(): Promise<void> {
    return this.pool.close();
  }
}
