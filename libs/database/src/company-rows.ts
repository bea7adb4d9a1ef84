import type { EntityManager } from 'typeorm';
import { COMPANY_TABLES, deleteCompanyRowsSql } from './company-rows.queries.js';

/**
 * Deletes every row of a company from a service's schema, in `tx`: each table with a "companyId" column
 * (found in the catalogue, so a table added later is covered without a change here). A table that other
 * rows still point at is tried again after the others (its dependants go first); answers the rows deleted
 * per table.
 */
export async function deleteCompanyRows(tx: EntityManager, schema: string, companyId: number): Promise<Record<string, number>> {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name ${schema}`);
  const tables: Array<{ name: string }> = await tx.query(COMPANY_TABLES, [schema]);
  const deleted: Record<string, number> = {};
  let pending = tables.map((t) => t.name);
  for (let pass = 0; pending.length > 0; pass++) {
    const blocked: string[] = [];
    for (const table of pending) {
      await tx.query('SAVEPOINT company_rows');
      try {
        const result: unknown = await tx.query(deleteCompanyRowsSql(schema, table), [companyId]);
        deleted[table] = Array.isArray(result) && typeof result[1] === 'number' ? result[1] : 0;
        await tx.query('RELEASE SAVEPOINT company_rows');
      } catch (err) {
        await tx.query('ROLLBACK TO SAVEPOINT company_rows');
        // rows of another table still point at these: after them
        if ((err as { code?: string }).code !== '23503' || pass >= tables.length) throw err;
        blocked.push(table);
      }
    }
    pending = blocked;
  }
  return deleted;
}
