import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A message's text changed after it was sent (POST /messages/edit/{id}) is shown as edited. */
export class MessageEdits1732240000010 implements MigrationInterface {
  name = 'MessageEdits1732240000010';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tickets.messages ADD COLUMN "isEdited" boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tickets.messages DROP COLUMN "isEdited"`);
  }
}
