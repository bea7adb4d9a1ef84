import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The connection's campaign pace (campaigns reads it from the connection events): a daily cap, a warm-up, sending hours. */
export class CampaignPace1732240000009 implements MigrationInterface {
  name = 'CampaignPace1732240000009';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE whatsapp.connections
        ADD COLUMN IF NOT EXISTS "campaignDailyLimit" int NOT NULL DEFAULT 0,
        ADD COLUMN IF NOT EXISTS "campaignWarmup" boolean NOT NULL DEFAULT false,
        ADD COLUMN IF NOT EXISTS "campaignHours" varchar(11) NOT NULL DEFAULT ''`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE whatsapp.connections
        DROP COLUMN IF EXISTS "campaignDailyLimit",
        DROP COLUMN IF EXISTS "campaignWarmup",
        DROP COLUMN IF EXISTS "campaignHours"`);
  }
}
