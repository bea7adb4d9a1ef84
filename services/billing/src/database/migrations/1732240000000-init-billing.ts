import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The service's own schema; its tables come with the features that need them. */
export class InitBilling1732240000000 implements MigrationInterface {
  name = 'InitBilling1732240000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SCHEMA IF NOT EXISTS billing`);
  }

  async down(): Promise<void> {
    // the schema is dropped with the service, not by a migration
  }
}
