import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Internal notes per ticket and contact; they go with their ticket. */
export class TicketNotes1732240000005 implements MigrationInterface {
  name = 'TicketNotes1732240000005';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS tickets.ticket_notes (
        id serial PRIMARY KEY,
        "companyId" int NOT NULL,
        "ticketId" int NOT NULL REFERENCES tickets.tickets(id) ON DELETE CASCADE,
        "contactId" int NOT NULL REFERENCES tickets.contacts(id) ON DELETE CASCADE,
        "userId" int NOT NULL,
        "userName" varchar(100) NOT NULL DEFAULT '',
        note text NOT NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX IF NOT EXISTS ticket_notes_ticket ON tickets.ticket_notes ("companyId", "ticketId", "contactId", id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS tickets.ticket_notes`);
  }
}
