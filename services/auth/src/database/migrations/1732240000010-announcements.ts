import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The platform's announcements (spec 02 "Announcement": title, text, priority 1 high to 3 low, status, an image),
 * written by super users and shown to every user of every company while active.
 */
export class Announcements1732240000010 implements MigrationInterface {
  name = 'Announcements1732240000010';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE IF NOT EXISTS auth.announcements (
      id serial PRIMARY KEY,
      title varchar(200) NOT NULL,
      text text NOT NULL,
      priority smallint NOT NULL DEFAULT 3 CHECK (priority BETWEEN 1 AND 3),
      status boolean NOT NULL DEFAULT true,
      "mediaPath" varchar(300),
      "mediaName" varchar(300),
      "createdAt" timestamptz NOT NULL DEFAULT now(),
      "updatedAt" timestamptz NOT NULL DEFAULT now()
    )`);
    // the popover: the active ones, newest first
    await q.query(`CREATE INDEX IF NOT EXISTS announcements_active_idx ON auth.announcements ("createdAt" DESC, id DESC) WHERE status`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS auth.announcements`);
  }
}
