import { outboxMigration } from '@wa/server-kit';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Events about users, settings and sessions are written in the transaction of the change (@wa/server-kit's outbox). */
export class AuthOutbox1732240000001 implements MigrationInterface {
  name = 'AuthOutbox1732240000001';

  async up(q: QueryRunner): Promise<void> {
    for (const sql of outboxMigration('auth').up) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const sql of outboxMigration('auth').down) await q.query(sql);
  }
}
