import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A user made with a password someone else chose (the first super user) sets their own at first sign-in. */
export class MustChangePassword1732240000002 implements MigrationInterface {
  name = 'MustChangePassword1732240000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE auth.users ADD COLUMN IF NOT EXISTS "mustChangePassword" boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE auth.users DROP COLUMN IF EXISTS "mustChangePassword"`);
  }
}
