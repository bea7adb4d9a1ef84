import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { SandboxInboundRequest } from '@wa/contracts';
import { DataSource } from 'typeorm';
import { rowsOf } from '../../../database/sql.js';

/** A message as a customer wrote it to the sandbox phone, with the WhatsApp id it was given. */
export type WrittenMessage = SandboxInboundRequest & { id: string };

/** A message the sandbox's WhatsApp keeps for the phone: what was written, when (whole seconds, WhatsApp's clock). */
export interface HeldMessage {
  /** its place in the order written */
  seq: string;
  message: WrittenMessage;
  writtenAt: Date;
}

/** Rows per INSERT (4 parameters each: far below PostgreSQL's 65,535). */
const ROWS_PER_INSERT = 1000;

/**
 * The sandbox's WhatsApp servers (`whatsapp.sandbox_held_messages`, `whatsapp.sandbox_phones`): what they keep for a
 * phone whose session is down, in the order written, until a session of it connects in any process and is handed
 * it (the offline backlog); per phone, until when it has no network and who is being handed its backlog.
 */
@Injectable()
export class SandboxHeldRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Keeps messages for the phone, in the order given, as written at `writtenAt`. */
  async hold(connectionId: number, companyId: number, messages: readonly WrittenMessage[], writtenAt: Date): Promise<void> {
    for (let i = 0; i < messages.length; i += ROWS_PER_INSERT) {
      const part = messages.slice(i, i + ROWS_PER_INSERT);
      const params: unknown[] = [connectionId, companyId, writtenAt];
      // one VALUES list: its rows take their ids (the order handed over) in the order listed
      const values = part.map((m) => {
        params.push(m.id, JSON.stringify(m));
        return `($1, $2, $${params.length - 1}, $${params.length}::jsonb, $3)`;
      });
      await this.db.query(
        `INSERT INTO whatsapp.sandbox_held_messages ("connectionId", "companyId", "waMessageId", message, "writtenAt")
         VALUES ${values.join(', ')}`,
        params,
      );
    }
  }

  /** The first `limit` messages held for the phone, in the order written. */
  async first(connectionId: number, limit: number): Promise<HeldMessage[]> {
    const raw = await this.db.query(
      `SELECT id::text AS seq, message, "writtenAt"
         FROM whatsapp.sandbox_held_messages
        WHERE "connectionId" = $1
        ORDER BY id
        LIMIT $2`,
      [connectionId, limit],
    );
    return rowsOf<{ seq: string; message: WrittenMessage; writtenAt: Date }>(raw).map((r) => ({
      seq: r.seq,
      message: r.message,
      writtenAt: new Date(r.writtenAt),
    }));
  }

  /** Held messages handed over (their delivery is published): no longer kept. */
  async delivered(connectionId: number, seqs: readonly string[]): Promise<void> {
    await this.db.query(`DELETE FROM whatsapp.sandbox_held_messages WHERE "connectionId" = $1 AND id = ANY($2::bigint[])`, [
      connectionId,
      seqs,
    ]);
  }

  /** The phone loses its network until `until` (an outage already on is replaced). */
  async offline(connectionId: number, until: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO whatsapp.sandbox_phones ("connectionId", "offlineUntil") VALUES ($1, $2)
       ON CONFLICT ("connectionId") DO UPDATE SET "offlineUntil" = EXCLUDED."offlineUntil"`,
      [connectionId, until],
    );
  }

  /** Until when the phone has no network; null when it has (or never lost it). */
  async offlineUntil(connectionId: number): Promise<Date | null> {
    const raw = await this.db.query(
      `SELECT "offlineUntil" FROM whatsapp.sandbox_phones WHERE "connectionId" = $1 AND "offlineUntil" > now()`,
      [connectionId],
    );
    const row = rowsOf<{ offlineUntil: Date }>(raw)[0];
    return row ? new Date(row.offlineUntil) : null;
  }

  /**
   * `by` (a session) is handed the phone's backlog for the next `ttlMs`: answers false while another one is, and its
   * claim has not lapsed (a process killed mid-way leaves one that lapses). Claimed again to keep it.
   */
  async claimHandOver(connectionId: number, by: string, ttlMs: number): Promise<boolean> {
    const raw = await this.db.query(
      `INSERT INTO whatsapp.sandbox_phones AS p ("connectionId", "handOverBy", "handOverUntil")
       VALUES ($1, $2, now() + make_interval(secs => $3::double precision / 1000))
       ON CONFLICT ("connectionId") DO UPDATE SET "handOverBy" = EXCLUDED."handOverBy", "handOverUntil" = EXCLUDED."handOverUntil"
        WHERE p."handOverBy" IS NULL OR p."handOverBy" = EXCLUDED."handOverBy" OR p."handOverUntil" < now()
       RETURNING 1 AS claimed`,
      [connectionId, by, ttlMs],
    );
    return rowsOf(raw).length > 0;
  }

  /** `by` is done handing the backlog over (an outage over by now is forgotten with it). */
  async releaseHandOver(connectionId: number, by: string): Promise<void> {
    await this.db.query(
      `UPDATE whatsapp.sandbox_phones
          SET "handOverBy" = NULL, "handOverUntil" = NULL,
              "offlineUntil" = CASE WHEN "offlineUntil" > now() THEN "offlineUntil" END
        WHERE "connectionId" = $1 AND "handOverBy" = $2`,
      [connectionId, by],
    );
  }

  /** The phone is unpaired: what was held for it, and its outage, are not for a new pairing. */
  async forget(connectionId: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query(`DELETE FROM whatsapp.sandbox_held_messages WHERE "connectionId" = $1`, [connectionId]);
      await tx.query(`DELETE FROM whatsapp.sandbox_phones WHERE "connectionId" = $1`, [connectionId]);
    });
  }
}
