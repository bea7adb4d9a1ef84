import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * File lists (spec 02 "File list"): a company's named sets of files, each option a name and an uploaded file,
 * with a message; campaigns pick one to send.
 */
export class FileLists1732240000024 implements MigrationInterface {
  name = 'FileLists1732240000024';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS tickets.file_lists (
        id serial PRIMARY KEY,
        "companyId" int NOT NULL,
        name varchar(100) NOT NULL,
        message text NOT NULL,
        "userId" int,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX IF NOT EXISTS file_lists_name ON tickets.file_lists ("companyId", lower(name))`);
    await q.query(`
      CREATE TABLE IF NOT EXISTS tickets.file_list_options (
        id serial PRIMARY KEY,
        "fileListId" int NOT NULL REFERENCES tickets.file_lists(id) ON DELETE CASCADE,
        "companyId" int NOT NULL,
        position int NOT NULL,
        name varchar(100) NOT NULL,
        path varchar(400),
        "mediaType" varchar(150)
      )`);
    await q.query(`CREATE INDEX IF NOT EXISTS file_list_options_list ON tickets.file_list_options ("fileListId", position)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS tickets.file_list_options`);
    await q.query(`DROP TABLE IF EXISTS tickets.file_lists`);
  }
}
