import type { DataSource } from 'typeorm';

/** A row of the sandbox PSP's own ledger (`billing.sandbox_charges`): what a real PSP keeps on its side. */
export interface SandboxChargeRow {
  txid: string;
  amountCents: number;
  /** ATIVA or CONCLUIDA (an expired unpaid charge stays ATIVA here; readCharge calls it REMOVIDA_PELO_PSP) */
  status: string;
  brCode: string;
  expiresAt: Date;
  endToEndId: string | null;
  paidCents: number | null;
  paidAt: Date | null;
}

const COLUMNS = `txid, "amountCents", status, "brCode", "expiresAt", "endToEndId", "paidCents", "paidAt"`;

/** Records a charge unless its txid is known: answers the txid's charge either way (the first one wins). */
export async function insertOrGetSandboxCharge(
  db: DataSource,
  charge: { txid: string; amountCents: number; brCode: string; expiresAt: Date },
): Promise<SandboxChargeRow> {
  const rows: SandboxChargeRow[] = await db.query(
    `WITH added AS (
       INSERT INTO billing.sandbox_charges (txid, "amountCents", "brCode", "expiresAt") VALUES ($1, $2, $3, $4)
       ON CONFLICT (txid) DO NOTHING RETURNING ${COLUMNS}
     )
     SELECT ${COLUMNS} FROM added
     UNION ALL
     SELECT ${COLUMNS} FROM billing.sandbox_charges WHERE txid = $1 AND NOT EXISTS (SELECT 1 FROM added)`,
    [charge.txid, charge.amountCents, charge.brCode, charge.expiresAt],
  );
  if (rows[0]) return rows[0];
  // a concurrent insert of the same txid committed after this statement's snapshot: it is there now
  const again = await findSandboxCharge(db, charge.txid);
  if (!again) throw new Error(`sandbox charge ${charge.txid} neither inserted nor found`);
  return again;
}

export async function findSandboxCharge(db: DataSource, txid: string): Promise<SandboxChargeRow | undefined> {
  const rows: SandboxChargeRow[] = await db.query(`SELECT ${COLUMNS} FROM billing.sandbox_charges WHERE txid = $1`, [txid]);
  return rows[0];
}

/**
 * Marks an active, unexpired charge paid (once: the status guard makes a second or concurrent payment change
 * nothing). `paidCents` null: the charge's amount. Answers the paid row, or undefined when nothing was paid.
 */
export async function paySandboxCharge(
  db: DataSource,
  txid: string,
  endToEndId: string,
  paidCents: number | null,
): Promise<SandboxChargeRow | undefined> {
  const [rows]: [SandboxChargeRow[], number] = await db.query(
    `UPDATE billing.sandbox_charges
        SET status = 'CONCLUIDA', "endToEndId" = $2, "paidCents" = COALESCE($3, "amountCents"), "paidAt" = now()
      WHERE txid = $1 AND status = 'ATIVA' AND "expiresAt" > now()
      RETURNING ${COLUMNS}`,
    [txid, endToEndId, paidCents],
  );
  return rows[0];
}
