import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ConnectionStatus, WaOutboundSend } from '@wa/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { ConnectionEvents } from '../connections/connection-events.js';
import type { ConnectionEntity } from '../database/entities/connection.entity.js';
import { rowsOf } from '../database/sql.js';

export interface StatusPatch {
  status: ConnectionStatus;
  qrcode?: string;
  retries?: number;
  number?: string | null;
}

/**
 * What the session runtime reads and writes. It works for every company the process holds sessions
 * of, so its queries name the connection (and the company where a payload brings one) explicitly
 * instead of taking the company from a request.
 */
@Injectable()
export class SessionStore {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly events: ConnectionEvents,
  ) {}

  async byId(connectionId: number): Promise<ConnectionEntity | null> {
    const rows = rowsOf<ConnectionEntity>(await this.db.query(`SELECT * FROM whatsapp.connections WHERE id = $1`, [connectionId]));
    return rows[0] ?? null;
  }

  /** Connections whose session should run (not DISCONNECTED), oldest first; optionally of some companies only. */
  async live(companyIds: Set<number> | undefined, limit: number): Promise<Array<{ id: number; companyId: number }>> {
    const raw = companyIds
      ? await this.db.query(
          `SELECT id, "companyId" FROM whatsapp.connections WHERE status <> 'DISCONNECTED' AND "companyId" = ANY($1::int[]) ORDER BY id LIMIT $2`,
          [[...companyIds], limit],
        )
      : await this.db.query(`SELECT id, "companyId" FROM whatsapp.connections WHERE status <> 'DISCONNECTED' ORDER BY id LIMIT $1`, [limit]);
    return rowsOf<{ id: number; companyId: number }>(raw);
  }

  /** Of these connections, those that still exist and are not DISCONNECTED. */
  async stillLive(ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const raw = await this.db.query(`SELECT id FROM whatsapp.connections WHERE id = ANY($1::int[]) AND status <> 'DISCONNECTED'`, [ids]);
    return new Set(rowsOf<{ id: number }>(raw).map((r) => r.id));
  }

  /**
   * Stores a status change and its `connection.session` event in one transaction (the outbox relay
   * publishes it after commit); null when the connection no longer exists.
   */
  async setStatus(connectionId: number, patch: StatusPatch): Promise<ConnectionEntity | null> {
    const row = await this.db.transaction(async (tx) => {
      const found = rowsOf<ConnectionEntity>(await this.updateStatus(tx, connectionId, patch))[0] ?? null;
      if (found) await this.events.add(tx, [ConnectionEvents.session(found)]);
      return found;
    });
    if (row) this.events.flush();
    return row;
  }

  private updateStatus(tx: EntityManager, connectionId: number, patch: StatusPatch): Promise<unknown> {
    return tx.query(
      `UPDATE whatsapp.connections
          SET status = $2,
              qrcode = COALESCE($3, qrcode),
              retries = COALESCE($4, retries),
              number = CASE WHEN $5::boolean THEN $6 ELSE number END,
              "updatedAt" = now()
        WHERE id = $1
        RETURNING *`,
      [connectionId, patch.status, patch.qrcode ?? null, patch.retries ?? null, patch.number !== undefined, patch.number ?? null],
    );
  }

  /**
   * Records a send before it goes out (once per connection and WhatsApp id) and answers the record's
   * state: `sent` means an earlier delivery of the same send already went out.
   */
  async recordSend(send: WaOutboundSend): Promise<'pending' | 'sent'> {
    const raw = await this.db.query(
      `WITH ins AS (
         INSERT INTO whatsapp.sent_messages ("connectionId", "companyId", "waMessageId", "to", body, "ticketId", "messageId")
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT ("connectionId", "waMessageId") DO NOTHING
         RETURNING state)
       SELECT state FROM ins
       UNION ALL
       SELECT state FROM whatsapp.sent_messages WHERE "connectionId" = $1 AND "waMessageId" = $3
       LIMIT 1`,
      [send.connectionId, send.companyId, send.waMessageId, send.to, send.body, send.ticketId ?? null, send.messageId ?? null],
    );
    return rowsOf<{ state: 'pending' | 'sent' }>(raw)[0]?.state ?? 'pending';
  }

  async markSent(connectionId: number, waMessageId: string): Promise<void> {
    await this.db.query(
      `UPDATE whatsapp.sent_messages SET state = 'sent', "sentAt" = COALESCE("sentAt", now()), ack = GREATEST(ack, 1)
        WHERE "connectionId" = $1 AND "waMessageId" = $2`,
      [connectionId, waMessageId],
    );
  }

  /** Raises a sent message's ack (acks only go up); false when it is not one of ours. */
  async raiseAck(connectionId: number, waMessageId: string, ack: number): Promise<boolean> {
    const raw = await this.db.query(
      `UPDATE whatsapp.sent_messages SET ack = GREATEST(ack, $3) WHERE "connectionId" = $1 AND "waMessageId" = $2 RETURNING id`,
      [connectionId, waMessageId, ack],
    );
    return rowsOf(raw).length > 0;
  }

  /** Did this connection send the message itself (an echo of our own send)? */
  async isOurSend(connectionId: number, waMessageId: string): Promise<boolean> {
    const raw = await this.db.query(`SELECT 1 FROM whatsapp.sent_messages WHERE "connectionId" = $1 AND "waMessageId" = $2`, [connectionId, waMessageId]);
    return rowsOf(raw).length > 0;
  }
}
