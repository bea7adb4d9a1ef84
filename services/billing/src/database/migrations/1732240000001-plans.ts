import { outboxMigration } from '@wa/server-kit';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Plans (spec 02 §3 "Plan"), owned here; auth keeps a copy by their events. Every deployment has plan 1,
 * "Plano Completo" (every flag on, no counts): the one the demo seed and the first super user's company use.
 */
export class Plans1732240000001 implements MigrationInterface {
  name = 'Plans1732240000001';

  async up(q: QueryRunner): Promise<void> {
    for (const sql of outboxMigration('billing').up) await q.query(sql);
    await q.query(`
      CREATE TABLE IF NOT EXISTS billing.plans (
        id serial PRIMARY KEY,
        name varchar(100) NOT NULL UNIQUE,
        users int NOT NULL DEFAULT 0,
        connections int NOT NULL DEFAULT 0,
        queues int NOT NULL DEFAULT 0,
        value numeric(10,2) NOT NULL DEFAULT 0,
        "useCampaigns" boolean NOT NULL DEFAULT true,
        "useKanban" boolean NOT NULL DEFAULT true,
        "useOpenAi" boolean NOT NULL DEFAULT true,
        "useIntegrations" boolean NOT NULL DEFAULT true,
        "useSchedules" boolean NOT NULL DEFAULT true,
        "useInternalChat" boolean NOT NULL DEFAULT true,
        "useExternalApi" boolean NOT NULL DEFAULT true,
        "isPublic" boolean NOT NULL DEFAULT true,
        "trialDays" int NOT NULL DEFAULT 7,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`INSERT INTO billing.plans (id, name) VALUES (1, 'Plano Completo') ON CONFLICT DO NOTHING`);
    await q.query(`SELECT setval(pg_get_serial_sequence('billing.plans', 'id'), GREATEST((SELECT max(id) FROM billing.plans), 1))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS billing.plans`);
    for (const sql of outboxMigration('billing').down) await q.query(sql);
  }
}
