import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Queues, contacts, tickets, messages, the read models fed by other services' events, and the outbox.
 * The database, not the code, keeps the promises: one non-closed ticket per contact and connection,
 * one message per connection and WhatsApp id.
 */
export class TicketsCore1732240000001 implements MigrationInterface {
  name = 'TicketsCore1732240000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await q.query(`
      CREATE TABLE tickets.queues (
        id serial PRIMARY KEY,
        "companyId" int NOT NULL,
        name varchar(50) NOT NULL,
        color varchar(30) NOT NULL,
        "greetingMessage" text NOT NULL DEFAULT '',
        "outOfHoursMessage" text NOT NULL DEFAULT '',
        "orderQueue" int,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX queues_company_name ON tickets.queues ("companyId", lower(name))`);
    await q.query(`CREATE UNIQUE INDEX queues_company_color ON tickets.queues ("companyId", lower(color))`);
    await q.query(`
      CREATE TABLE tickets.contacts (
        id serial PRIMARY KEY,
        "companyId" int NOT NULL,
        name varchar(100) NOT NULL,
        number varchar(64) NOT NULL,
        email varchar(200) NOT NULL DEFAULT '',
        "profilePicUrl" text NOT NULL DEFAULT '',
        "isGroup" boolean NOT NULL DEFAULT false,
        "extraInfo" jsonb NOT NULL DEFAULT '[]',
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX contacts_company_number ON tickets.contacts ("companyId", number)`);
    await q.query(`CREATE INDEX contacts_name_trgm ON tickets.contacts USING gin (lower(name) gin_trgm_ops)`);
    await q.query(`CREATE INDEX contacts_number_trgm ON tickets.contacts USING gin (number gin_trgm_ops)`);
    await q.query(`
      CREATE TABLE tickets.tickets (
        id serial PRIMARY KEY,
        uuid uuid NOT NULL DEFAULT gen_random_uuid(),
        "companyId" int NOT NULL,
        status varchar(10) NOT NULL DEFAULT 'pending',
        "contactId" int NOT NULL REFERENCES tickets.contacts(id) ON DELETE CASCADE,
        "whatsappId" int NOT NULL,
        "queueId" int REFERENCES tickets.queues(id) ON DELETE SET NULL,
        "userId" int,
        "lastMessage" text NOT NULL DEFAULT '',
        "unreadMessages" int NOT NULL DEFAULT 0,
        "isGroup" boolean NOT NULL DEFAULT false,
        chatbot boolean NOT NULL DEFAULT false,
        "useIntegration" boolean NOT NULL DEFAULT false,
        "promptId" int,
        "integrationId" int,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT tickets_status CHECK (status IN ('pending', 'open', 'closed'))
      )`);
    await q.query(`CREATE UNIQUE INDEX tickets_uuid ON tickets.tickets (uuid)`);
    await q.query(
      `CREATE UNIQUE INDEX tickets_one_open_per_contact ON tickets.tickets ("contactId", "whatsappId") WHERE status <> 'closed'`,
    );
    await q.query(`CREATE INDEX tickets_list ON tickets.tickets ("companyId", status, "updatedAt" DESC, id DESC)`);
    await q.query(`CREATE INDEX tickets_company_updated ON tickets.tickets ("companyId", "updatedAt" DESC, id DESC)`);
    await q.query(`CREATE INDEX tickets_contact ON tickets.tickets ("contactId")`);
    await q.query(`
      CREATE TABLE tickets.messages (
        id bigserial PRIMARY KEY,
        "companyId" int NOT NULL,
        "ticketId" int NOT NULL REFERENCES tickets.tickets(id) ON DELETE CASCADE,
        "contactId" int,
        "whatsappId" int NOT NULL,
        wid varchar(128) NOT NULL,
        body text NOT NULL DEFAULT '',
        "fromMe" boolean NOT NULL DEFAULT false,
        "mediaType" varchar(30) NOT NULL DEFAULT 'chat',
        "mediaUrl" text,
        "quotedMsgId" bigint,
        ack smallint NOT NULL DEFAULT 0,
        read boolean NOT NULL DEFAULT false,
        "isDeleted" boolean NOT NULL DEFAULT false,
        "sentAt" timestamptz NOT NULL DEFAULT now(),
        seq bigint,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX messages_connection_wid ON tickets.messages ("whatsappId", wid)`);
    await q.query(`CREATE INDEX messages_ticket_order ON tickets.messages ("ticketId", "sentAt" DESC, seq DESC NULLS FIRST, id DESC)`);
    await q.query(`CREATE INDEX messages_body_trgm ON tickets.messages USING gin (lower(body) gin_trgm_ops)`);
    // read models of other services' records, fed by their events
    await q.query(`
      CREATE TABLE tickets.connections (
        id int PRIMARY KEY,
        "companyId" int NOT NULL,
        name varchar(100) NOT NULL,
        status varchar(20) NOT NULL,
        "isDefault" boolean NOT NULL DEFAULT false,
        "queueIds" int[] NOT NULL DEFAULT '{}',
        "greetingMessage" text NOT NULL DEFAULT '',
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX connections_company ON tickets.connections ("companyId")`);
    await q.query(`
      CREATE TABLE tickets.company_settings (
        "companyId" int NOT NULL,
        key varchar(100) NOT NULL,
        value text NOT NULL,
        PRIMARY KEY ("companyId", key)
      )`);
    // events written in the same transaction as the change, published after commit (and by the relay after a crash)
    await q.query(`
      CREATE TABLE tickets.outbox (
        id bigserial PRIMARY KEY,
        subject varchar(300) NOT NULL,
        "msgId" varchar(300) NOT NULL,
        payload jsonb NOT NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['outbox', 'company_settings', 'connections', 'messages', 'tickets', 'contacts', 'queues']) {
      await q.query(`DROP TABLE IF EXISTS tickets.${t}`);
    }
  }
}
