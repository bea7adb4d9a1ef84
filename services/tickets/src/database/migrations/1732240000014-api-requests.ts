import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The public messages API's idempotency keys: the first answer of a call made with `Idempotency-Key`,
 * per connection, kept 24 h (a retried call gets it again and sends nothing twice).
 */
export class ApiRequests1732240000014 implements MigrationInterface {
  name = 'ApiRequests1732240000014';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS tickets.api_requests (
        "connectionId" int NOT NULL,
        key varchar(200) NOT NULL,
        "companyId" int NOT NULL,
        response jsonb,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("connectionId", key)
      )`);
    await q.query(`CREATE INDEX IF NOT EXISTS api_requests_created ON tickets.api_requests ("createdAt")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS tickets.api_requests`);
  }
}
