import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The calls the sandbox phone got (POST …/sandbox/call), one row per call: ringing until the session rejects it
 * (the `rejectCall` command), so a test sees what a caller's phone would (GET …/sandbox/calls).
 */
export class SandboxCalls1732240000013 implements MigrationInterface {
  name = 'SandboxCalls1732240000013';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS whatsapp.sandbox_calls (
        id bigserial PRIMARY KEY,
        "connectionId" int NOT NULL REFERENCES whatsapp.connections(id) ON DELETE CASCADE,
        "companyId" int NOT NULL,
        "callId" varchar(128) NOT NULL,
        "from" varchar(100) NOT NULL,
        "isVideo" boolean NOT NULL DEFAULT false,
        state varchar(10) NOT NULL DEFAULT 'ringing',
        "offeredAt" timestamptz NOT NULL DEFAULT now(),
        "rejectedAt" timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX IF NOT EXISTS sandbox_calls_call ON whatsapp.sandbox_calls ("connectionId", "callId")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS whatsapp.sandbox_calls`);
  }
}
