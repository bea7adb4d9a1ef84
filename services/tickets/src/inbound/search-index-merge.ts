import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { PeriodicTask } from '@wa/server-kit';
import { DataSource } from 'typeorm';
import { TicketsEnv } from '../config/env.js';
import { MERGE_MESSAGE_SEARCH_LIST } from './search-index-merge.queries.js';

/**
 * The message search's trigram index (`messages_body_trgm`, GIN) takes each stored message's trigrams into a pending
 * list; merging that list into the index is most of what indexing a message costs, and it is cheaper the more
 * entries a merge takes at once (trigrams repeat across messages). Left to the inserts, the statement that finds the
 * list past its limit merges it inside the inbound lane's transaction: migration 029 kept the list short (256 kB) so
 * that no batch waited long, at about twice the cost in all. Here the list is merged apart, every
 * MESSAGE_SEARCH_MERGE_MS, in a statement of its own while the lanes go on (they only append to the list), and the
 * list's limit (4 MB, migration 047) is only the bound for when this falls behind. A search scans what is not merged
 * yet: at most the last interval's messages. Every replica runs it; two at once take turns on the index's lock.
 */
@Injectable()
export class SearchIndexMerge implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(SearchIndexMerge.name);
  private readonly task: PeriodicTask;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    env: TicketsEnv,
  ) {
    this.task = new PeriodicTask({
      name: 'message search merge',
      everyMs: env.MESSAGE_SEARCH_MERGE_MS,
      run: () => this.merge(),
      logger: this.logger,
    });
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.task.stop();
  }

  /** One pass: the pending list merged into the index; answers how many of its pages were merged (0: it was empty). */
  async merge(): Promise<number> {
    const [row] = (await this.db.query(MERGE_MESSAGE_SEARCH_LIST)) as Array<{ pages: string | number }>;
    return Number(row?.pages ?? 0);
  }
}
