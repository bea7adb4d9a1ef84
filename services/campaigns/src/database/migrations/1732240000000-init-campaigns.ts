import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The service's own schema; its tables come with the features that need them. */
export class InitCampaigns1732240000000 implements MigrationInterface {
  name = 'InitCampaigns1732240000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SCHEMA IF NOT EXISTS campaigns`);
  }

  async down(): Promise<void> {
    // the schema is dropped with the service, not by a migration
  }
}
