import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The sandbox phone records the file that went with a message: type, name, size and SHA-256 of its bytes. */
export class SandboxMedia1732240000004 implements MigrationInterface {
  name = 'SandboxMedia1732240000004';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE whatsapp.sandbox_outbox ADD COLUMN media jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE whatsapp.sandbox_outbox DROP COLUMN media`);
  }
}
