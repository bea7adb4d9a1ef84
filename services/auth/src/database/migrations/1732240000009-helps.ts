import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The platform's help videos (spec 02 "Help": title, description, video code), managed by super users. */
export class Helps1732240000009 implements MigrationInterface {
  name = 'Helps1732240000009';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE IF NOT EXISTS auth.helps (
      id serial PRIMARY KEY,
      title varchar(100) NOT NULL,
      description text NOT NULL DEFAULT '',
      video varchar(100) NOT NULL DEFAULT '',
      "createdAt" timestamptz NOT NULL DEFAULT now(),
      "updatedAt" timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE UNIQUE INDEX IF NOT EXISTS helps_title_idx ON auth.helps (lower(title))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS auth.helps`);
  }
}
