import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Queue integrations (spec 02 "Queue integration"): a queue's customers answered by an outside flow (a
 * webhook, an n8n flow, a Typebot bot, a Dialogflow agent). Dialogflow's JSON credentials are stored sealed.
 * A queue names its integration (`integrationId`).
 */
export class QueueIntegrations1732240000022 implements MigrationInterface {
  name = 'QueueIntegrations1732240000022';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS tickets.queue_integrations (
        id serial PRIMARY KEY,
        "companyId" int NOT NULL,
        type varchar(20) NOT NULL,
        name varchar(50) NOT NULL,
        "projectName" varchar(100) NOT NULL DEFAULT '',
        "jsonContent" text,
        language varchar(10) NOT NULL DEFAULT '',
        "urlN8N" text NOT NULL DEFAULT '',
        "typebotSlug" varchar(200) NOT NULL DEFAULT '',
        "typebotExpires" int NOT NULL DEFAULT 1,
        "typebotKeywordFinish" varchar(100) NOT NULL DEFAULT '',
        "typebotKeywordRestart" varchar(100) NOT NULL DEFAULT '',
        "typebotUnknownMessage" text NOT NULL DEFAULT '',
        "typebotRestartMessage" text NOT NULL DEFAULT '',
        "typebotDelayMessage" int NOT NULL DEFAULT 1000,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX IF NOT EXISTS queue_integrations_company ON tickets.queue_integrations ("companyId", lower(name), id)`);
    await q.query(
      `ALTER TABLE tickets.queues ADD COLUMN IF NOT EXISTS "integrationId" int REFERENCES tickets.queue_integrations(id) ON DELETE SET NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tickets.queues DROP COLUMN IF EXISTS "integrationId"`);
    await q.query(`DROP TABLE IF EXISTS tickets.queue_integrations`);
  }
}
