import type { DataSource } from 'typeorm';
import { rowsOf } from './sql.js';

export interface SeedSandboxOptions {
  companyId: number;
  /** queue of the connection; none when absent */
  queueId?: number;
}

/**
 * A company without connections gets its default sandbox connection, named `Sandbox`, in state
 * OPENING so that a session manager starts it at boot. Idempotent; two seeds at once make one.
 */
export async function seedSandboxConnection(
  ds: DataSource,
  opts: SeedSandboxOptions,
): Promise<{ created: boolean; connectionId?: number }> {
  return ds.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('whatsapp-sessions-seed'))`);
    const existing = rowsOf<{ id: number }>(
      await tx.query(`SELECT id FROM whatsapp.connections WHERE "companyId" = $1 ORDER BY "isDefault" DESC, id LIMIT 1`, [opts.companyId]),
    );
    if (existing.length > 0) return { created: false, connectionId: existing[0].id };
    const rows = rowsOf<{ id: number }>(
      await tx.query(
        `INSERT INTO whatsapp.connections ("companyId", name, status, "isDefault", channel, "queueIds")
         VALUES ($1, 'Sandbox', 'OPENING', true, 'sandbox', $2::int[]) RETURNING id`,
        [opts.companyId, opts.queueId ? [opts.queueId] : []],
      ),
    );
    return { created: true, connectionId: rows[0]?.id };
  });
}
