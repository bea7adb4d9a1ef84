import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The sandbox phone records edits and deletions of messages beside the sends. */
export class SandboxChanges1732240000005 implements MigrationInterface {
  name = 'SandboxChanges1732240000005';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE whatsapp.sandbox_outbox ADD COLUMN kind varchar(10) NOT NULL DEFAULT 'send'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE whatsapp.sandbox_outbox DROP COLUMN kind`);
  }
}
