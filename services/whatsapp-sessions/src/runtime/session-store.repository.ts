import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ConnectionStatus, SessionEndReason, WaOutboundSend } from '@wa/contracts';
import { writeBatcher } from '@wa/server-kit';
import { DataSource, type EntityManager } from 'typeorm';
import { ConnectionEvents } from '../outbox/connection-events.js';
import { KeyedStatements } from '../database/keyed-statements.js';
import type { ConnectionEntity } from '../database/entities/connection.entity.js';
import { rowsOf } from '../database/sql.js';

/** A send as it is recorded: a campaign's has no ticket and message (null). */
export type SendToRecord = Pick<WaOutboundSend, 'connectionId' | 'companyId' | 'waMessageId' | 'to' | 'body'> & {
  ticketId?: number | null;
  messageId?: number | null;
};

export interface StatusPatch {
  status: ConnectionStatus;
  qrcode?: string;
  retries?: number;
  number?: string | null;
  /**
   * why WhatsApp ended the session (a logout, a ban, another client): told in the session event and kept on the
   * connection (`endReason`) until it is CONNECTED again or DISCONNECTED without one (an admin's disconnect)
   */
  reason?: SessionEndReason;
}

/**
 * The sent message of a connection and WhatsApp id (SQL expressions), looked up by its unique key one at a
 * time. Joined directly, a batch's ids were matched by scanning every message the connection had sent
 * whenever PostgreSQL's statistics were behind (a new or fast-growing table), so each ack cost more than the
 * one before. The LIMIT keeps the lookup a subquery of its own, which the planner does not merge into a join.
 */
const SENT_BY_WID = (conn: string, wid: string, columns = 'id') =>
  `SELECT ${columns} FROM whatsapp.sent_messages WHERE "connectionId" = ${conn} AND "waMessageId" = ${wid} LIMIT 1`;

/**
 * A write's rows: `s.id = ANY(` the ids the keys name `)`, so the table is reached through its primary key
 * by those ids whatever the plan. Joined to the ids instead (UPDATE … FROM), the plan kept on KeyedStatements'
 * connections (made once, at a connection's first run, often on an empty table) scanned the whole primary key
 * for every batch of acks: as a hash join's build side, and with hash joins off, as a nested loop's outer side.
 */
const SENT_IDS = (keys: string, conn: string, wid: string) =>
  `s.id = ANY(ARRAY(SELECT f.id FROM ${keys} CROSS JOIN LATERAL (${SENT_BY_WID(conn, wid)}) f))`;

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
    private readonly keyed: KeyedStatements,
  ) {}

  async byId(connectionId: number): Promise<ConnectionEntity | null> {
    const rows = rowsOf<ConnectionEntity>(await this.db.query(`SELECT * FROM whatsapp.connections WHERE id = $1`, [connectionId]));
    return rows[0] ?? null;
  }

  /** Connections whose session should run (not DISCONNECTED), oldest first; optionally of some companies only. */
  async live(companyIds: Set<number> | undefined): Promise<Array<{ id: number; companyId: number }>> {
    const raw = companyIds
      ? await this.db.query(
          `SELECT id, "companyId" FROM whatsapp.connections WHERE status <> 'DISCONNECTED' AND "companyId" = ANY($1::int[]) ORDER BY id`,
          [[...companyIds]],
        )
      : await this.db.query(`SELECT id, "companyId" FROM whatsapp.connections WHERE status <> 'DISCONNECTED' ORDER BY id`);
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
      if (found) await this.events.add(tx, [ConnectionEvents.session(found, patch.reason)]);
      return found;
    });
    if (row) this.events.flush();
    return row;
  }

  private updateStatus(tx: EntityManager, connectionId: number, patch: StatusPatch): Promise<unknown> {
    return tx.query(
      `UPDATE whatsapp.connections
          SET status = $2::varchar,
              qrcode = COALESCE($3, qrcode),
              retries = COALESCE($4, retries),
              number = CASE WHEN $5::boolean THEN $6 ELSE number END,
              "endReason" = CASE $2::varchar WHEN 'CONNECTED' THEN NULL WHEN 'DISCONNECTED' THEN $7::varchar ELSE "endReason" END,
              "updatedAt" = now()
        WHERE id = $1
        RETURNING *`,
      [
        connectionId,
        patch.status,
        patch.qrcode ?? null,
        patch.retries ?? null,
        patch.number !== undefined,
        patch.number ?? null,
        patch.reason ?? null,
      ],
    );
  }

  /**
   * Records sends before they go out, one statement for the lot; answers each one's state by WhatsApp id
   * ('sent': a redelivery of a send already on the wire).
   */
  async recordSends(sends: readonly SendToRecord[]): Promise<Map<string, 'pending' | 'sent'>> {
    const unique = [...new Map(sends.map((s) => [`${s.connectionId}|${s.waMessageId}`, s])).values()];
    if (unique.length === 0) return new Map();
    const col = <T>(f: (s: SendToRecord) => T) => unique.map(f);
    const raw = await this.keyed.query(
      `WITH v AS (
         SELECT * FROM unnest($1::int[], $2::int[], $3::varchar[], $4::varchar[], $5::text[], $6::int[], $7::int[]) AS v(conn, company, wid, "to", body, ticket, message)
       ), ins AS (
         INSERT INTO whatsapp.sent_messages ("connectionId", "companyId", "waMessageId", "to", body, "ticketId", "messageId")
         SELECT conn, company, wid, "to", body, ticket, message FROM v
         ON CONFLICT ("connectionId", "waMessageId") DO NOTHING
         RETURNING "connectionId", "waMessageId", state)
       SELECT "connectionId", "waMessageId", state FROM ins
       UNION ALL
       SELECT s."connectionId", s."waMessageId", s.state FROM v CROSS JOIN LATERAL (${SENT_BY_WID('v.conn', 'v.wid', '"connectionId", "waMessageId", state')}) s`,
      [
        col((s) => s.connectionId),
        col((s) => s.companyId),
        col((s) => s.waMessageId),
        col((s) => s.to),
        col((s) => s.body),
        col((s) => s.ticketId ?? null),
        col((s) => s.messageId ?? null),
      ],
    );
    // the table's rows are the statement's snapshot: a row inserted by it shows only in `ins`
    return new Map(
      rowsOf<{ connectionId: number; waMessageId: string; state: 'pending' | 'sent' }>(raw).map((r) => [
        `${r.connectionId}|${r.waMessageId}`,
        r.state,
      ]),
    );
  }

  /**
   * Marks a send as out (resolves once that is stored). Sends going out side by side share the statement
   * (writeBatcher): one round trip for what was marked while the previous one ran.
   */
  markSent(connectionId: number, waMessageId: string): Promise<void> {
    return this.markSentTogether({ connectionId, waMessageId });
  }

  private readonly markSentTogether = writeBatcher<{ connectionId: number; waMessageId: string }>(async (sends) => {
    await this.keyed.query(
      `UPDATE whatsapp.sent_messages s SET state = 'sent', "sentAt" = COALESCE(s."sentAt", now()), ack = GREATEST(s.ack, 1)
        WHERE ${SENT_IDS('unnest($1::int[], $2::varchar[]) AS u(conn, wid)', 'u.conn', 'u.wid')}`,
      [sends.map((s) => s.connectionId), sends.map((s) => s.waMessageId)],
    );
  });

  /**
   * Raises sent messages' acks (acks only go up), one statement for the lot, whichever of the process's connections
   * sent them. A status already stored (the sent, 1, that markSent wrote) writes nothing.
   */
  async raiseAcks(acks: ReadonlyArray<{ connectionId: number; waMessageId: string; ack: number }>): Promise<void> {
    if (acks.length === 0) return;
    // one row per message, its highest status (an UPDATE … FROM takes one of a row's matches, not the highest)
    const top = new Map<string, { connectionId: number; waMessageId: string; ack: number }>();
    for (const a of acks) {
      const key = `${a.connectionId}|${a.waMessageId}`;
      const seen = top.get(key);
      if (!seen || seen.ack < a.ack) top.set(key, a);
    }
    const rows = [...top.values()];
    await this.keyed.query(
      `UPDATE whatsapp.sent_messages s SET ack = v.ack
         FROM unnest($1::int[], $2::varchar[], $3::int[]) AS v(conn, wid, ack)
        WHERE ${SENT_IDS('unnest($1::int[], $2::varchar[]) AS u(conn, wid)', 'u.conn', 'u.wid')}
          AND s."connectionId" = v.conn AND s."waMessageId" = v.wid AND s.ack < v.ack`,
      [rows.map((r) => r.connectionId), rows.map((r) => r.waMessageId), rows.map((r) => r.ack)],
    );
  }

  /** Did this connection send the message itself (an echo of our own send)? */
  async isOurSend(connectionId: number, waMessageId: string): Promise<boolean> {
    const raw = await this.keyed.query(`SELECT 1 FROM whatsapp.sent_messages WHERE "connectionId" = $1 AND "waMessageId" = $2`, [
      connectionId,
      waMessageId,
    ]);
    return rowsOf(raw).length > 0;
  }
}
