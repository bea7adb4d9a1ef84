import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sandbox's WhatsApp servers, in PostgreSQL rather than in one process' memory: what they keep for a phone whose
 * session is down (`sandbox_held_messages`: each message as written, in the order written, with the time written;
 * handed over as the offline backlog when a session connects, in any process) and, per phone (`sandbox_phones`),
 * until when it has no network (POST …/sandbox/offline) and which session is being handed its backlog. A process
 * killed meanwhile loses none of it.
 */
export class SandboxHeldMessages1732240000018 implements MigrationInterface {
  name = 'SandboxHeldMessages1732240000018';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS whatsapp.sandbox_held_messages (
        id bigserial PRIMARY KEY,
        "connectionId" int NOT NULL REFERENCES whatsapp.connections(id) ON DELETE CASCADE,
        "companyId" int NOT NULL,
        "waMessageId" varchar(128) NOT NULL,
        message jsonb NOT NULL,
        "writtenAt" timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX IF NOT EXISTS sandbox_held_messages_order ON whatsapp.sandbox_held_messages ("connectionId", id)`);
    await q.query(`
      CREATE TABLE IF NOT EXISTS whatsapp.sandbox_phones (
        "connectionId" int PRIMARY KEY REFERENCES whatsapp.connections(id) ON DELETE CASCADE,
        "offlineUntil" timestamptz,
        "handOverBy" varchar(64),
        "handOverUntil" timestamptz
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS whatsapp.sandbox_phones`);
    await q.query(`DROP TABLE IF EXISTS whatsapp.sandbox_held_messages`);
  }
}
