import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Outbound webhooks: a company's endpoint (URL, secret, events), the deliveries (written in the transaction
 * of the change they announce; sent in order per ticket, retried for a day) and each ticket's last status
 * announced (so a status change is told once).
 */
export class Webhooks1732240000015 implements MigrationInterface {
  name = 'Webhooks1732240000015';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS tickets.webhook_settings (
        "companyId" int PRIMARY KEY,
        url text NOT NULL,
        secret text NOT NULL,
        events text[] NOT NULL,
        enabled boolean NOT NULL DEFAULT true,
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE IF NOT EXISTS tickets.webhook_deliveries (
        id bigserial PRIMARY KEY,
        "companyId" int NOT NULL,
        "ticketId" int NOT NULL,
        event varchar(40) NOT NULL,
        -- the announcing event's id: an event announced again (a replay after a crash) makes no second delivery
        "eventKey" varchar(300) NOT NULL,
        payload jsonb NOT NULL,
        status varchar(10) NOT NULL DEFAULT 'pending',
        attempts int NOT NULL DEFAULT 0,
        "nextAttemptAt" timestamptz NOT NULL DEFAULT now(),
        "claimedUntil" timestamptz,
        "lastStatus" int,
        "lastError" text,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "deliveredAt" timestamptz,
        CONSTRAINT webhook_deliveries_status CHECK (status IN ('pending', 'delivered', 'failed'))
      )`);
    await q.query(
      `CREATE UNIQUE INDEX IF NOT EXISTS webhook_deliveries_event ON tickets.webhook_deliveries ("companyId", "eventKey", event)`,
    );
    await q.query(
      `CREATE INDEX IF NOT EXISTS webhook_deliveries_pending ON tickets.webhook_deliveries ("companyId", "ticketId", id) WHERE status = 'pending'`,
    );
    await q.query(`CREATE INDEX IF NOT EXISTS webhook_deliveries_log ON tickets.webhook_deliveries ("companyId", id DESC)`);
    await q.query(`
      CREATE TABLE IF NOT EXISTS tickets.webhook_ticket_status (
        "companyId" int NOT NULL,
        "ticketId" int NOT NULL,
        status varchar(20) NOT NULL,
        PRIMARY KEY ("companyId", "ticketId")
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS tickets.webhook_ticket_status`);
    await q.query(`DROP TABLE IF EXISTS tickets.webhook_deliveries`);
    await q.query(`DROP TABLE IF EXISTS tickets.webhook_settings`);
  }
}
