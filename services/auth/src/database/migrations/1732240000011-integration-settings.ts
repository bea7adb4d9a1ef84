import type { MigrationInterface, QueryRunner } from 'typeorm';

/** spec 02 §3: the integration settings (IXC, MK-Auth, Asaas), empty, for every company that lacks them. */
export class IntegrationSettings1732240000011 implements MigrationInterface {
  name = 'IntegrationSettings1732240000011';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      INSERT INTO auth.settings ("companyId", key, value)
      SELECT c.id, k.key, '' FROM auth.companies c
      CROSS JOIN unnest(ARRAY['ipixc', 'tokenixc', 'ipmkauth', 'clientidmkauth', 'clientsecretmkauth', 'asaas']) AS k(key)
      ON CONFLICT ("companyId", key) DO NOTHING`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `DELETE FROM auth.settings WHERE key IN ('ipixc', 'tokenixc', 'ipmkauth', 'clientidmkauth', 'clientsecretmkauth', 'asaas') AND value = ''`,
    );
  }
}
