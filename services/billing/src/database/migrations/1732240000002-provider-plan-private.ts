import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Plan 1 is the provider's own (free, unlimited): never offered at sign-up. */
export class ProviderPlanPrivate1732240000002 implements MigrationInterface {
  name = 'ProviderPlanPrivate1732240000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE billing.plans SET "isPublic" = false, "updatedAt" = now() WHERE id = 1`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE billing.plans SET "isPublic" = true, "updatedAt" = now() WHERE id = 1`);
  }
}
