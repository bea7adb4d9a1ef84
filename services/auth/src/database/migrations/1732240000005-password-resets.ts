import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Password reset codes (spec 02 "Password reset"): only a hash is kept; a code expires, works once and allows few tries. */
export class PasswordResets1732240000005 implements MigrationInterface {
  name = 'PasswordResets1732240000005';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS auth.password_resets (
        id serial PRIMARY KEY,
        "userId" int NOT NULL REFERENCES auth.users(id) ON DELETE CASCADE,
        "codeHash" varchar(64) NOT NULL,
        "expiresAt" timestamptz NOT NULL,
        "usedAt" timestamptz,
        attempts int NOT NULL DEFAULT 0,
        "createdAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX IF NOT EXISTS password_resets_user ON auth.password_resets ("userId", id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS auth.password_resets`);
  }
}
