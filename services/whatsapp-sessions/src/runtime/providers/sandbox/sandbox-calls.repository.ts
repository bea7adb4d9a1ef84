import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { SandboxCallItem } from '@wa/contracts';
import { DataSource } from 'typeorm';
import { rowsOf } from '../../../database/sql.js';

export const CALLS_PAGE_SIZE = 20;

/** A call the sandbox phone got. */
export interface SandboxCallOffer {
  connectionId: number;
  companyId: number;
  callId: string;
  from: string;
  isVideo: boolean;
  offeredAt: Date;
}

/**
 * The sandbox phone's calls (`whatsapp.sandbox_calls`): each one ringing from its offer until the session rejects it,
 * kept so that any process answers GET …/sandbox/calls, wherever the session runs.
 */
@Injectable()
export class SandboxCallsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The phone rings (a call id offered again changes nothing). */
  async offered(call: SandboxCallOffer): Promise<void> {
    await this.db.query(
      `INSERT INTO whatsapp.sandbox_calls ("connectionId", "companyId", "callId", "from", "isVideo", "offeredAt")
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT ("connectionId", "callId") DO NOTHING`,
      [call.connectionId, call.companyId, call.callId, call.from, call.isVideo, call.offeredAt],
    );
  }

  /** The phone declined the call; answers whether it had it (a call rejected twice keeps its first time). */
  async rejected(connectionId: number, callId: string): Promise<boolean> {
    const raw = await this.db.query(
      `UPDATE whatsapp.sandbox_calls SET state = 'rejected', "rejectedAt" = COALESCE("rejectedAt", now())
        WHERE "connectionId" = $1 AND "callId" = $2
        RETURNING id`,
      [connectionId, callId],
    );
    return rowsOf(raw).length > 0;
  }

  /** Newest first. */
  async page(connectionId: number, companyId: number, pageNumber: number): Promise<{ items: SandboxCallItem[]; hasMore: boolean }> {
    const raw = await this.db.query(
      `SELECT "callId", "from", "isVideo", state, "offeredAt", "rejectedAt"
         FROM whatsapp.sandbox_calls
        WHERE "connectionId" = $1 AND "companyId" = $2
        ORDER BY id DESC
        LIMIT $3 OFFSET $4`,
      [connectionId, companyId, CALLS_PAGE_SIZE + 1, (pageNumber - 1) * CALLS_PAGE_SIZE],
    );
    const rows = rowsOf<{
      callId: string;
      from: string;
      isVideo: boolean;
      state: SandboxCallItem['state'];
      offeredAt: Date;
      rejectedAt: Date | null;
    }>(raw);
    return {
      items: rows.slice(0, CALLS_PAGE_SIZE).map((r) => ({
        callId: r.callId,
        from: r.from,
        isVideo: r.isVideo,
        state: r.state,
        offeredAt: new Date(r.offeredAt).toISOString(),
        rejectedAt: r.rejectedAt ? new Date(r.rejectedAt).toISOString() : null,
      })),
      hasMore: rows.length > CALLS_PAGE_SIZE,
    };
  }
}
