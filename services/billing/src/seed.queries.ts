import type { DataSource } from 'typeorm';

/**
 * The demo's "Plano Básico" (spec 02 §9: the custom plan's defaults, 49 with 3 users and 3 connections), unless
 * a plan of that name exists: true when it was added.
 */
export async function insertBasicPlan(ds: DataSource): Promise<boolean> {
  const rows: Array<{ id: number }> = await ds.query(
    `INSERT INTO billing.plans (name, users, connections, queues, value, "useOpenAi", "useIntegrations", "useExternalApi", "trialDays")
     VALUES ('Plano Básico', 3, 3, 3, 49, false, false, false, 7) ON CONFLICT (name) DO NOTHING RETURNING id`,
  );
  return rows.length > 0;
}
