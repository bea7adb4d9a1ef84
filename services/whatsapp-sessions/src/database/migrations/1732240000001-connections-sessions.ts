import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Connections (the `/whatsapp` records), session auth state, what sessions sent, and the sandbox phone's outbox. */
export class ConnectionsSessions1732240000001 implements MigrationInterface {
  name = 'ConnectionsSessions1732240000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE whatsapp.connections (
        id serial PRIMARY KEY,
        "companyId" int NOT NULL,
        name varchar(50) NOT NULL,
        status varchar(20) NOT NULL DEFAULT 'DISCONNECTED',
        qrcode text NOT NULL DEFAULT '',
        retries int NOT NULL DEFAULT 0,
        "isDefault" boolean NOT NULL DEFAULT false,
        token varchar(200),
        "greetingMessage" text NOT NULL DEFAULT '',
        "complationMessage" text NOT NULL DEFAULT '',
        "outOfHoursMessage" text NOT NULL DEFAULT '',
        "ratingMessage" text NOT NULL DEFAULT '',
        "expiresInactiveMessage" text NOT NULL DEFAULT '',
        "expiresTicket" int NOT NULL DEFAULT 0,
        "timeToTransfer" int NOT NULL DEFAULT 0,
        "transferQueueId" int,
        "timeUseBotQueues" int NOT NULL DEFAULT 0,
        "maxUseBotQueues" int NOT NULL DEFAULT 3,
        provider varchar(20) NOT NULL DEFAULT 'beta',
        channel varchar(20) NOT NULL DEFAULT 'sandbox',
        "promptId" int,
        number varchar(50),
        "queueIds" int[] NOT NULL DEFAULT '{}',
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT connections_status CHECK (status IN ('OPENING', 'qrcode', 'PAIRING', 'CONNECTED', 'DISCONNECTED', 'TIMEOUT')),
        CONSTRAINT connections_channel CHECK (channel IN ('sandbox', 'baileys'))
      )`);
    await q.query(`CREATE UNIQUE INDEX connections_company_name ON whatsapp.connections ("companyId", lower(name))`);
    // at most one default per company; the service keeps at least one while the company has connections
    await q.query(`CREATE UNIQUE INDEX connections_company_default ON whatsapp.connections ("companyId") WHERE "isDefault"`);
    // the public messages API finds a connection by its token
    await q.query(`CREATE UNIQUE INDEX connections_token ON whatsapp.connections (token) WHERE token IS NOT NULL AND token <> ''`);
    // what the session managers look for at boot and on takeover
    await q.query(`CREATE INDEX connections_live ON whatsapp.connections (id) WHERE status <> 'DISCONNECTED'`);

    // Baileys creds (category 'creds', id '') and signal keys, JSON written with BufferJSON
    await q.query(`
      CREATE TABLE whatsapp.session_state (
        "connectionId" int NOT NULL REFERENCES whatsapp.connections(id) ON DELETE CASCADE,
        category varchar(40) NOT NULL,
        id text NOT NULL,
        value text NOT NULL,
        "updatedAt" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("connectionId", category, id)
      )`);

    // a send is recorded before it goes out, so a redelivery after a crash is recognised
    await q.query(`
      CREATE TABLE whatsapp.sent_messages (
        id bigserial PRIMARY KEY,
        "connectionId" int NOT NULL REFERENCES whatsapp.connections(id) ON DELETE CASCADE,
        "companyId" int NOT NULL,
        "waMessageId" varchar(128) NOT NULL,
        "to" varchar(100) NOT NULL,
        body text NOT NULL,
        "ticketId" int,
        "messageId" int,
        state varchar(10) NOT NULL DEFAULT 'pending',
        ack smallint NOT NULL DEFAULT 0,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "sentAt" timestamptz,
        CONSTRAINT sent_messages_state CHECK (state IN ('pending', 'sent')),
        CONSTRAINT sent_messages_ack CHECK (ack BETWEEN 0 AND 5)
      )`);
    await q.query(`CREATE UNIQUE INDEX sent_messages_wa_id ON whatsapp.sent_messages ("connectionId", "waMessageId")`);

    // what the sandbox phone put on the wire, one row per transmission (a double send shows twice)
    await q.query(`
      CREATE TABLE whatsapp.sandbox_outbox (
        id bigserial PRIMARY KEY,
        "connectionId" int NOT NULL REFERENCES whatsapp.connections(id) ON DELETE CASCADE,
        "companyId" int NOT NULL,
        "waMessageId" varchar(128) NOT NULL,
        "to" varchar(100) NOT NULL,
        body text NOT NULL,
        "sentAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX sandbox_outbox_connection ON whatsapp.sandbox_outbox ("connectionId", id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['sandbox_outbox', 'sent_messages', 'session_state', 'connections']) {
      await q.query(`DROP TABLE IF EXISTS whatsapp.${table}`);
    }
  }
}
