import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The dashboard's facts (spec 01 §2 "Dashboard"): when a ticket was accepted and closed, and its rating, kept by
 * a trigger on every path that changes a ticket's status (the API, the inbound store, the scheduler, the bot),
 * with indexes to count a period. Figures of past days are kept in `dashboard_days` once computed; a change
 * to a ticket's facts forgets the days it counted in (the trigger again), so they are computed anew.
 */
export class Dashboard1732240000012 implements MigrationInterface {
  name = 'Dashboard1732240000012';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE tickets.tickets
        ADD COLUMN IF NOT EXISTS "acceptedAt" timestamptz,
        ADD COLUMN IF NOT EXISTS "closedAt" timestamptz,
        ADD COLUMN IF NOT EXISTS rating smallint`);
    // what there is already: a closed ticket was closed at its last change; a held one accepted when it began
    await q.query(`UPDATE tickets.tickets SET "closedAt" = "updatedAt" WHERE status = 'closed' AND "closedAt" IS NULL`);
    await q.query(
      `UPDATE tickets.tickets SET "acceptedAt" = "createdAt" WHERE status <> 'pending' AND "userId" IS NOT NULL AND "acceptedAt" IS NULL`,
    );
    await q.query(`CREATE INDEX IF NOT EXISTS tickets_company_created ON tickets.tickets ("companyId", "createdAt")`);
    await q.query(
      `CREATE INDEX IF NOT EXISTS tickets_company_closed ON tickets.tickets ("companyId", "closedAt") INCLUDE ("acceptedAt", "userId", rating) WHERE "closedAt" IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX IF NOT EXISTS tickets_company_accepted ON tickets.tickets ("companyId", "acceptedAt") INCLUDE ("createdAt", "userId") WHERE "acceptedAt" IS NOT NULL`,
    );
    await q.query(`
      CREATE TABLE IF NOT EXISTS tickets.dashboard_days (
        "companyId" int NOT NULL,
        "timeZone" varchar(64) NOT NULL,
        day date NOT NULL,
        figures jsonb NOT NULL,
        "computedAt" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("companyId", "timeZone", day)
      )`);
    await q.query(`
      CREATE OR REPLACE FUNCTION tickets.ticket_facts() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          IF NEW.status = 'open' THEN NEW."acceptedAt" := COALESCE(NEW."acceptedAt", now()); END IF;
          IF NEW.status = 'closed' THEN NEW."closedAt" := COALESCE(NEW."closedAt", now()); END IF;
        ELSIF NEW.status IS DISTINCT FROM OLD.status THEN
          IF NEW.status = 'open' THEN
            NEW."acceptedAt" := now(); NEW."closedAt" := NULL; NEW.rating := NULL;
          ELSIF NEW.status = 'pending' THEN
            NEW."acceptedAt" := NULL; NEW."closedAt" := NULL; NEW.rating := NULL;
          ELSIF NEW.status = 'closed' THEN
            NEW."closedAt" := now();
          END IF;
        END IF;
        RETURN NEW;
      END $$`);
    await q.query(`DROP TRIGGER IF EXISTS ticket_facts ON tickets.tickets`);
    await q.query(
      `CREATE TRIGGER ticket_facts BEFORE INSERT OR UPDATE OF status ON tickets.tickets FOR EACH ROW EXECUTE FUNCTION tickets.ticket_facts()`,
    );
    // a day's figures are forgotten when a ticket that counted in it changes (one day either side: any time zone)
    await q.query(`
      CREATE OR REPLACE FUNCTION tickets.forget_dashboard_days() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE d date;
      BEGIN
        FOREACH d IN ARRAY ARRAY[OLD."createdAt"::date, OLD."acceptedAt"::date, OLD."closedAt"::date] LOOP
          IF d IS NOT NULL THEN
            DELETE FROM tickets.dashboard_days WHERE "companyId" = OLD."companyId" AND day BETWEEN d - 1 AND d + 1;
          END IF;
        END LOOP;
        RETURN NULL;
      END $$`);
    await q.query(`DROP TRIGGER IF EXISTS ticket_facts_changed ON tickets.tickets`);
    await q.query(`
      CREATE TRIGGER ticket_facts_changed AFTER UPDATE OF "acceptedAt", "closedAt", rating, "userId" ON tickets.tickets FOR EACH ROW
      WHEN (OLD."acceptedAt" IS DISTINCT FROM NEW."acceptedAt" OR OLD."closedAt" IS DISTINCT FROM NEW."closedAt" OR OLD.rating IS DISTINCT FROM NEW.rating OR OLD."userId" IS DISTINCT FROM NEW."userId")
      EXECUTE FUNCTION tickets.forget_dashboard_days()`);
    await q.query(`DROP TRIGGER IF EXISTS ticket_facts_deleted ON tickets.tickets`);
    await q.query(
      `CREATE TRIGGER ticket_facts_deleted AFTER DELETE ON tickets.tickets FOR EACH ROW EXECUTE FUNCTION tickets.forget_dashboard_days()`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER IF EXISTS ticket_facts_deleted ON tickets.tickets`);
    await q.query(`DROP TRIGGER IF EXISTS ticket_facts_changed ON tickets.tickets`);
    await q.query(`DROP TRIGGER IF EXISTS ticket_facts ON tickets.tickets`);
    await q.query(`DROP FUNCTION IF EXISTS tickets.forget_dashboard_days()`);
    await q.query(`DROP FUNCTION IF EXISTS tickets.ticket_facts()`);
    await q.query(`DROP TABLE IF EXISTS tickets.dashboard_days`);
    await q.query(`DROP INDEX IF EXISTS tickets.tickets_company_accepted`);
    await q.query(`DROP INDEX IF EXISTS tickets.tickets_company_closed`);
    await q.query(`DROP INDEX IF EXISTS tickets.tickets_company_created`);
    await q.query(
      `ALTER TABLE tickets.tickets DROP COLUMN IF EXISTS rating, DROP COLUMN IF EXISTS "closedAt", DROP COLUMN IF EXISTS "acceptedAt"`,
    );
  }
}
