import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * auth's copy of the plans: names are billing's to keep unique (two plans swapping names arrive one event at a
 * time, and a unique index here would stop the copy); plan 1, the provider's own, is not offered at sign-up.
 */
export class PlansCopyNames1732240000007 implements MigrationInterface {
  name = 'PlansCopyNames1732240000007';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS auth.plans_name`);
    await q.query(`UPDATE auth.plans SET "isPublic" = false WHERE id = 1`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE UNIQUE INDEX IF NOT EXISTS plans_name ON auth.plans (name)`);
  }
}
