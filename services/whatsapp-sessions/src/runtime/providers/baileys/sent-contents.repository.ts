import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { KeyedStatements } from '../../../database/keyed-statements.js';

/** A message a connection sent, as `whatsapp.sent_contents` keeps it. */
export interface SentContentRow {
  connectionId: number;
  waMessageId: string;
  /** the chat's jid it went to */
  jid: string;
  /** the encoded `proto.Message` */
  content: Buffer;
}

/**
 * `whatsapp.sent_contents`: what each message a connection sent carried (WhatsApp's encoded content), by
 * connection and WhatsApp id, for a bounded window. The write and the read are keyed hot statements
 * (KeyedStatements); the prune runs on the data source.
 */
@Injectable()
export class SentContentsRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly keyed: KeyedStatements,
  ) {}

  /** Keeps these messages, sent now (one statement for the lot; an id sent again keeps its latest content). */
  async keep(rows: readonly SentContentRow[]): Promise<void> {
    const last = [...new Map(rows.map((r) => [`${r.connectionId}|${r.waMessageId}`, r])).values()];
    if (last.length === 0) return;
    await this.keyed.query(
      `INSERT INTO whatsapp.sent_contents ("connectionId", "waMessageId", jid, content, "sentAt")
       SELECT c, w, j, b, now() FROM unnest($1::int[], $2::varchar[], $3::varchar[], $4::bytea[]) AS t(c, w, j, b)
       ON CONFLICT ("connectionId", "waMessageId") DO UPDATE SET jid = excluded.jid, content = excluded.content, "sentAt" = excluded."sentAt"`,
      [last.map((r) => r.connectionId), last.map((r) => r.waMessageId), last.map((r) => r.jid), last.map((r) => r.content)],
    );
  }

  /** The message the connection sent under this id within the last `windowMs`; null when none is kept. */
  async find(connectionId: number, waMessageId: string, windowMs: number): Promise<{ jid: string; content: Buffer } | null> {
    const [row] = await this.keyed.query<{ jid: string; content: Buffer }>(
      `SELECT jid, content FROM whatsapp.sent_contents
        WHERE "connectionId" = $1 AND "waMessageId" = $2 AND "sentAt" > now() - $3 * interval '1 millisecond'`,
      [connectionId, waMessageId, windowMs],
    );
    return row ?? null;
  }

  /**
   * Deletes up to `limit` messages sent longer than `windowMs` ago, oldest first (by the `sentAt` index);
   * answers how many went. Rows another process is deleting at the same time are skipped, not waited for.
   */
  async prune(windowMs: number, limit: number): Promise<number> {
    const raw: unknown = await this.db.query(
      `DELETE FROM whatsapp.sent_contents WHERE ("connectionId", "waMessageId") IN (
         SELECT "connectionId", "waMessageId" FROM whatsapp.sent_contents
          WHERE "sentAt" <= now() - $1 * interval '1 millisecond'
          ORDER BY "sentAt" LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      [windowMs, limit],
    );
    // TypeORM's postgres driver answers a DELETE with [rows, rowCount]
    return Array.isArray(raw) && typeof raw[1] === 'number' ? raw[1] : 0;
  }
}
