import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';

/** A reset code as stored: its hash only, and the wrong tries it survived. */
export interface StoredResetCode {
  id: number;
  codeHash: string;
  attempts: number;
}

/** Password-reset codes (`auth.password_resets`): hashes only, each used once. */
@Injectable()
export class PasswordResetsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** A new code for the user, valid `ttlSeconds`; the codes asked before are used up. Answers its id. */
  async replace(tx: EntityManager, userId: number, codeHash: string, ttlSeconds: number): Promise<number> {
    await this.useAll(tx, userId);
    const rows: Array<{ id: number }> = await tx.query(
      `INSERT INTO auth.password_resets ("userId", "codeHash", "expiresAt") VALUES ($1, $2, now() + ($3 || ' seconds')::interval) RETURNING id`,
      [userId, codeHash, String(ttlSeconds)],
    );
    return (rows[0] as { id: number }).id;
  }

  async remove(id: number): Promise<void> {
    await this.db.query(`DELETE FROM auth.password_resets WHERE id = $1`, [id]);
  }

  /** The user's latest code still usable, locked to the end of the transaction. */
  async current(tx: EntityManager, userId: number): Promise<StoredResetCode | undefined> {
    const rows: StoredResetCode[] = await tx.query(
      `SELECT id, "codeHash", attempts FROM auth.password_resets
          WHERE "userId" = $1 AND "usedAt" IS NULL AND "expiresAt" > now() ORDER BY id DESC LIMIT 1 FOR UPDATE`,
      [userId],
    );
    return rows[0];
  }

  /** One more wrong try of a code; at `maxTries` it is used up. */
  async wrongTry(tx: EntityManager, id: number, maxTries: number): Promise<void> {
    await tx.query(
      `UPDATE auth.password_resets SET attempts = attempts + 1, "usedAt" = CASE WHEN attempts + 1 >= $2 THEN now() END WHERE id = $1`,
      [id, maxTries],
    );
  }

  /** Uses up every code of the user not used yet. */
  async useAll(tx: EntityManager, userId: number): Promise<void> {
    await tx.query(`UPDATE auth.password_resets SET "usedAt" = now() WHERE "userId" = $1 AND "usedAt" IS NULL`, [userId]);
  }

  /** Deletes the codes of these users (their company is being deleted). */
  async deleteOfUsers(tx: EntityManager, userIds: number[]): Promise<void> {
    await tx.query(`DELETE FROM auth.password_resets WHERE "userId" = ANY($1::int[])`, [userIds]);
  }
}
