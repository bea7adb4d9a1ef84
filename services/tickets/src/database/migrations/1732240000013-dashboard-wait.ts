import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The wait a dashboard averages is from when a ticket entered the waiting list (`queuedAt`: created pending,
 * or returned to pending) to when an agent accepted it from there. A reopened or directly opened ticket
 * waited for no one. The forget trigger also fires on a status change alone (a bot's, a reopen without a user),
 * and takes the company's dashboard lock (shared) so that days are never kept from before its change.
 */
export class DashboardWait1732240000013 implements MigrationInterface {
  name = 'DashboardWait1732240000013';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tickets.tickets ADD COLUMN IF NOT EXISTS "queuedAt" timestamptz`);
    await q.query(
      `UPDATE tickets.tickets SET "queuedAt" = "createdAt" WHERE "queuedAt" IS NULL AND (status = 'pending' OR "acceptedAt" IS NOT NULL)`,
    );
    await q.query(`DROP INDEX IF EXISTS tickets.tickets_company_accepted`);
    await q.query(
      `CREATE INDEX IF NOT EXISTS tickets_company_accepted ON tickets.tickets ("companyId", "acceptedAt") INCLUDE ("queuedAt", "userId") WHERE "acceptedAt" IS NOT NULL`,
    );
    await q.query(`
      CREATE OR REPLACE FUNCTION tickets.ticket_facts() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          IF NEW.status = 'pending' THEN NEW."queuedAt" := COALESCE(NEW."queuedAt", now()); END IF;
          IF NEW.status = 'open' THEN NEW."acceptedAt" := COALESCE(NEW."acceptedAt", now()); END IF;
          IF NEW.status = 'closed' THEN NEW."closedAt" := COALESCE(NEW."closedAt", now()); END IF;
        ELSIF NEW.status IS DISTINCT FROM OLD.status THEN
          IF NEW.status = 'open' THEN
            NEW."acceptedAt" := now(); NEW."closedAt" := NULL; NEW.rating := NULL;
            -- accepted from the waiting list: its wait ends now; reopened: it waited for no one
            IF OLD.status <> 'pending' THEN NEW."queuedAt" := NULL; END IF;
          ELSIF NEW.status = 'pending' THEN
            NEW."queuedAt" := now(); NEW."acceptedAt" := NULL; NEW."closedAt" := NULL; NEW.rating := NULL;
          ELSIF NEW.status = 'closed' THEN
            NEW."closedAt" := now();
          END IF;
        END IF;
        RETURN NEW;
      END $$`);
    // a change that forgets days holds the company's dashboard lock shared; computing and keeping days holds it
    // alone: figures are never kept from before a change that committed after they were read
    await q.query(`
      CREATE OR REPLACE FUNCTION tickets.forget_dashboard_days() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE d date;
      BEGIN
        PERFORM pg_advisory_xact_lock_shared(hashtext('tickets-dashboard-days'), OLD."companyId");
        FOREACH d IN ARRAY ARRAY[OLD."createdAt"::date, OLD."acceptedAt"::date, OLD."closedAt"::date] LOOP
          IF d IS NOT NULL THEN
            DELETE FROM tickets.dashboard_days WHERE "companyId" = OLD."companyId" AND day BETWEEN d - 1 AND d + 1;
          END IF;
        END LOOP;
        RETURN NULL;
      END $$`);
    await q.query(`DROP TRIGGER IF EXISTS ticket_facts_changed ON tickets.tickets`);
    await q.query(`
      CREATE TRIGGER ticket_facts_changed AFTER UPDATE OF status, "acceptedAt", "closedAt", "queuedAt", rating, "userId" ON tickets.tickets FOR EACH ROW
      WHEN (OLD."acceptedAt" IS DISTINCT FROM NEW."acceptedAt" OR OLD."closedAt" IS DISTINCT FROM NEW."closedAt" OR OLD."queuedAt" IS DISTINCT FROM NEW."queuedAt"
            OR OLD.rating IS DISTINCT FROM NEW.rating OR OLD."userId" IS DISTINCT FROM NEW."userId")
      EXECUTE FUNCTION tickets.forget_dashboard_days()`);
    // figures kept with the old wait are computed again
    await q.query(`DELETE FROM tickets.dashboard_days`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER IF EXISTS ticket_facts_changed ON tickets.tickets`);
    await q.query(`
      CREATE TRIGGER ticket_facts_changed AFTER UPDATE OF "acceptedAt", "closedAt", rating, "userId" ON tickets.tickets FOR EACH ROW
      WHEN (OLD."acceptedAt" IS DISTINCT FROM NEW."acceptedAt" OR OLD."closedAt" IS DISTINCT FROM NEW."closedAt" OR OLD.rating IS DISTINCT FROM NEW.rating OR OLD."userId" IS DISTINCT FROM NEW."userId")
      EXECUTE FUNCTION tickets.forget_dashboard_days()`);
    await q.query(`ALTER TABLE tickets.tickets DROP COLUMN IF EXISTS "queuedAt"`);
  }
}
