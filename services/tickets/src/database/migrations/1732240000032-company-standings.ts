import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What tickets knows of each company's standing, for the one plan check on the paths that run without a
 * request (the bot's outside flows and AI prompts, scheduled sends, webhooks): its status, due date and plan
 * (auth's `company.updated`), and each plan's flags (billing's `plan.updated`). A row asked of auth (a
 * company or plan no event told of yet) has "updatedAt" -infinity: any event replaces it.
 * `plans` has no "companyId": deleting a company's rows leaves the plans.
 */
export class CompanyStandings1732240000032 implements MigrationInterface {
  name = 'CompanyStandings1732240000032';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS tickets.company_standings (
        "companyId" int PRIMARY KEY,
        status boolean NOT NULL,
        "dueDate" date,
        "planId" int,
        "updatedAt" timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE TABLE IF NOT EXISTS tickets.plans (
        id int PRIMARY KEY,
        flags jsonb NOT NULL,
        "updatedAt" timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS tickets.plans`);
    await q.query(`DROP TABLE IF EXISTS tickets.company_standings`);
  }
}
