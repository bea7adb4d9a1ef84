import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A queue's chatbot tree (spec 02 "Queue option"): each option has a number the customer answers with,
 * unique on its level; an option's sub-options go when it goes, and all of them when their queue goes.
 */
export class QueueOptions1732240000017 implements MigrationInterface {
  name = 'QueueOptions1732240000017';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS tickets.queue_options (
        id serial PRIMARY KEY,
        "companyId" int NOT NULL,
        "queueId" int NOT NULL REFERENCES tickets.queues (id) ON DELETE CASCADE,
        "parentId" int REFERENCES tickets.queue_options (id) ON DELETE CASCADE,
        title varchar(100) NOT NULL,
        message text NOT NULL DEFAULT '',
        option varchar(3) NOT NULL,
        "mediaPath" text,
        "mediaName" text,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE UNIQUE INDEX IF NOT EXISTS queue_options_level_option ON tickets.queue_options ("queueId", coalesce("parentId", 0), option)`,
    );
    await q.query(`CREATE INDEX IF NOT EXISTS queue_options_parent ON tickets.queue_options ("parentId") WHERE "parentId" IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS tickets.queue_options`);
  }
}
