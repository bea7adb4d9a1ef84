import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A company's working hours (spec 02 settings' Horarios tab): one entry per open day, [] when none were set. */
export class CompanySchedules1732240000008 implements MigrationInterface {
  name = 'CompanySchedules1732240000008';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE auth.companies ADD COLUMN IF NOT EXISTS schedules jsonb NOT NULL DEFAULT '[]'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE auth.companies DROP COLUMN IF EXISTS schedules`);
  }
}
