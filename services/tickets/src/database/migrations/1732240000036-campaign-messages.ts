import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The last campaign message each contact got on each connection (campaigns' `campaign.sent`), kept 7 days: when
 * the contact answers and a new ticket opens, the conversation shows it before the answer, once (the row is
 * taken then). A campaign send itself opens no ticket.
 */
export class CampaignMessages1732240000036 implements MigrationInterface {
  name = 'CampaignMessages1732240000036';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS tickets.campaign_messages (
        "companyId" int NOT NULL,
        "whatsappId" int NOT NULL,
        number varchar(64) NOT NULL,
        "campaignId" int NOT NULL,
        wid varchar(128) NOT NULL,
        body text NOT NULL,
        "sentAt" timestamptz NOT NULL,
        PRIMARY KEY ("companyId", "whatsappId", number)
      )`);
    // the purge of what is older than 7 days
    await q.query(`CREATE INDEX IF NOT EXISTS campaign_messages_sent ON tickets.campaign_messages ("sentAt")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS tickets.campaign_messages`);
  }
}
