import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Tags of a company and the tags of each ticket (spec 01 §3, spec 02 §3). */
export class Tags1732240000009 implements MigrationInterface {
  name = 'Tags1732240000009';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS tickets.tags (
        id serial PRIMARY KEY,
        "companyId" int NOT NULL,
        name varchar(100) NOT NULL,
        color varchar(30) NOT NULL DEFAULT '#A4CCCC',
        kanban int NOT NULL DEFAULT 0,
        "userId" int,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT tags_kanban CHECK (kanban IN (0, 1))
      )`);
    await q.query(`CREATE UNIQUE INDEX IF NOT EXISTS tags_company_name ON tickets.tags ("companyId", lower(name))`);
    await q.query(`
      CREATE TABLE IF NOT EXISTS tickets.ticket_tags (
        "ticketId" int NOT NULL REFERENCES tickets.tickets(id) ON DELETE CASCADE,
        "tagId" int NOT NULL REFERENCES tickets.tags(id) ON DELETE CASCADE,
        "companyId" int NOT NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("ticketId", "tagId")
      )`);
    await q.query(`CREATE INDEX IF NOT EXISTS ticket_tags_tag ON tickets.ticket_tags ("tagId")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS tickets.ticket_tags`);
    await q.query(`DROP TABLE IF EXISTS tickets.tags`);
  }
}
