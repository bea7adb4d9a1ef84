import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A queue's working hours (spec 02 "Queue": schedules of weekday, weekdayEn, startTime, endTime). */
export class QueueSchedules1732240000019 implements MigrationInterface {
  name = 'QueueSchedules1732240000019';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tickets.queues ADD COLUMN IF NOT EXISTS schedules jsonb NOT NULL DEFAULT '[]'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tickets.queues DROP COLUMN IF EXISTS schedules`);
  }
}
