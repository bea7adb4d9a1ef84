import type { DataSource, EntityManager } from 'typeorm';
import { CompanyEntity, UserEntity } from './database/entities/index.js';

/** The seeds (seed.ts, seed-super-user.ts) run one at a time until the transaction ends. */
export async function lockSeeds(tx: EntityManager): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtext('auth-seed'))`);
}

/** Whether the database has a company already (the demo seed runs on an empty one only). */
export async function hasCompanies(tx: EntityManager): Promise<boolean> {
  return (await tx.getRepository(CompanyEntity).count()) > 0;
}

/** The first super user, if there is one. */
export function firstSuperUser(tx: EntityManager): Promise<UserEntity | null> {
  return tx.getRepository(UserEntity).findOne({ where: { super: true }, order: { id: 'ASC' } });
}

/** The company of the user with this email, whatever its case (the demo admin's). */
export async function companyOfEmail(ds: DataSource, email: string): Promise<number | undefined> {
  const rows: Array<{ companyId: number }> = await ds.query(`SELECT "companyId" FROM auth.users WHERE lower(email) = lower($1) LIMIT 1`, [
    email,
  ]);
  return rows[0]?.companyId;
}
