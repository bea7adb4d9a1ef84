import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * AI prompts (spec 02 "Prompt"): a queue whose prompt answers its customers through an OpenAI-compatible
 * model. The API key is stored sealed (AES-256-GCM), never in clear. A queue names its prompt (`promptId`,
 * PUT /queue) or a prompt names its queue (`queueId`).
 */
export class Prompts1732240000021 implements MigrationInterface {
  name = 'Prompts1732240000021';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS tickets.prompts (
        id serial PRIMARY KEY,
        "companyId" int NOT NULL,
        name varchar(100) NOT NULL,
        prompt text NOT NULL,
        voice varchar(60) NOT NULL DEFAULT 'texto',
        "voiceKey" text,
        "voiceRegion" varchar(60),
        "maxTokens" int NOT NULL DEFAULT 100,
        temperature real NOT NULL DEFAULT 1,
        "apiKey" text,
        "queueId" int NOT NULL REFERENCES tickets.queues(id) ON DELETE CASCADE,
        "maxMessages" int NOT NULL DEFAULT 10,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX IF NOT EXISTS prompts_company ON tickets.prompts ("companyId", name)`);
    await q.query(`CREATE INDEX IF NOT EXISTS prompts_queue ON tickets.prompts ("queueId")`);
    await q.query(`ALTER TABLE tickets.queues ADD COLUMN IF NOT EXISTS "promptId" int REFERENCES tickets.prompts(id) ON DELETE SET NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tickets.queues DROP COLUMN IF EXISTS "promptId"`);
    await q.query(`DROP TABLE IF EXISTS tickets.prompts`);
  }
}
