import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A queue's file (spec 02 "Queue": mediaPath, mediaName), sent with its greeting. */
export class QueueMedia1732240000018 implements MigrationInterface {
  name = 'QueueMedia1732240000018';

  async up(q: QueryRunner): Promise<void> {
    // nullable, no default: instant
    await q.query(`ALTER TABLE tickets.queues ADD COLUMN IF NOT EXISTS "mediaPath" text, ADD COLUMN IF NOT EXISTS "mediaName" text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tickets.queues DROP COLUMN IF EXISTS "mediaPath", DROP COLUMN IF EXISTS "mediaName"`);
  }
}
