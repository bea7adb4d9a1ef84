import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * auth.plans is billing's plans as their events tell (ids are billing's): whether one is offered at sign-up
 * and its trial days come along. Plan 1, "Plano Completo", exists everywhere (billing's first migration).
 */
export class PlansCopy1732240000006 implements MigrationInterface {
  name = 'PlansCopy1732240000006';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE auth.plans ADD COLUMN IF NOT EXISTS "isPublic" boolean NOT NULL DEFAULT true, ADD COLUMN IF NOT EXISTS "trialDays" int NOT NULL DEFAULT 7`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE auth.plans DROP COLUMN IF EXISTS "isPublic", DROP COLUMN IF EXISTS "trialDays"`);
  }
}
