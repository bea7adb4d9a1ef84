import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The pacer takes a campaign's next due row by campaign and id: the index follows (by connection it walked every campaign's rows). */
export class ShippingsDueByCampaign1732240000002 implements MigrationInterface {
  name = 'ShippingsDueByCampaign1732240000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS campaigns.shippings_due`);
    await q.query(`CREATE INDEX shippings_due ON campaigns.shippings ("campaignId", id) WHERE status IN ('pending', 'confirmed')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS campaigns.shippings_due`);
    await q.query(`CREATE INDEX shippings_due ON campaigns.shippings ("connectionId", id) WHERE status IN ('pending', 'confirmed')`);
  }
}
