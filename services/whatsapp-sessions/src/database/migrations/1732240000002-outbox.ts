import { outboxMigration } from '@wa/server-kit';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Connection status and QR events are written in the transaction of the change (@wa/server-kit's outbox). */
export class WhatsappOutbox1732240000002 implements MigrationInterface {
  name = 'WhatsappOutbox1732240000002';

  async up(q: QueryRunner): Promise<void> {
    for (const sql of outboxMigration('whatsapp').up) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const sql of outboxMigration('whatsapp').down) await q.query(sql);
  }
}
