import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Scheduled messages (spec 01 §3 "Schedule"). The row is the truth; a BullMQ delayed job only wakes the
 * sender at `sendAt`, and the sender re-reads the row under a lock (sent once, however often it wakes).
 */
export class Schedules1732240000011 implements MigrationInterface {
  name = 'Schedules1732240000011';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS tickets.schedules (
        id serial PRIMARY KEY,
        "companyId" int NOT NULL,
        "contactId" int NOT NULL REFERENCES tickets.contacts(id) ON DELETE CASCADE,
        "userId" int NOT NULL,
        "ticketId" int,
        body text NOT NULL,
        "sendAt" timestamptz NOT NULL,
        "sentAt" timestamptz,
        status varchar(20) NOT NULL DEFAULT 'PENDENTE',
        reason text,
        "mediaPath" text,
        "mediaName" text,
        "mediaType" varchar(20),
        "mediaMimetype" varchar(200),
        "mediaSize" int,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX IF NOT EXISTS schedules_company_send_at ON tickets.schedules ("companyId", "sendAt", id)`);
    await q.query(`CREATE INDEX IF NOT EXISTS schedules_contact ON tickets.schedules ("contactId")`);
    // the ones still to send, for the sweep that puts back jobs Redis lost
    await q.query(`CREATE INDEX IF NOT EXISTS schedules_pending ON tickets.schedules ("sendAt", id) WHERE status = 'PENDENTE'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS tickets.schedules`);
  }
}
