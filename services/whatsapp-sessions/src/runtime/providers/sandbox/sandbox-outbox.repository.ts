import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { SandboxOutboxItem } from '@wa/contracts';
import { writeBatcher } from '@wa/server-kit';
import { DataSource } from 'typeorm';
import { KeyedStatements } from '../../../database/keyed-statements.js';
import { rowsOf } from '../../../database/sql.js';

export const OUTBOX_PAGE_SIZE = 20;

/** What the sandbox phone put on the wire. */
export interface SandboxTransmission {
  connectionId: number;
  companyId: number;
  waMessageId: string;
  to: string;
  body: string;
  media?: SandboxOutboxItem['media'];
  kind?: SandboxOutboxItem['kind'];
  sentAt?: Date;
}

/**
 * The sandbox phone's record of what it put on the wire: one row per transmission, so a message sent
 * twice shows twice. The ack each message reached is the session's (sent_messages.ack).
 */
@Injectable()
export class SandboxOutboxRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly keyed: KeyedStatements,
  ) {}

  /**
   * Records a transmission (resolves once it is stored). Transmissions made side by side share the
   * statement (writeBatcher): one round trip for what was recorded while the previous one ran.
   */
  record(item: SandboxTransmission): Promise<void> {
    return this.recordTogether(item);
  }

  private readonly recordTogether = writeBatcher<SandboxTransmission>(async (items) => {
    const col = <T>(f: (i: SandboxTransmission) => T) => items.map(f);
    await this.keyed.query(
      `INSERT INTO whatsapp.sandbox_outbox ("connectionId", "companyId", "waMessageId", "to", body, media, kind, "sentAt")
       SELECT conn, company, wid, "to", body, media, kind, COALESCE(at, now())
         FROM unnest($1::int[], $2::int[], $3::varchar[], $4::varchar[], $5::text[], $6::jsonb[], $7::varchar[], $8::timestamptz[])
              WITH ORDINALITY AS u(conn, company, wid, "to", body, media, kind, at, ord)
        ORDER BY ord`,
      [
        col((i) => i.connectionId),
        col((i) => i.companyId),
        col((i) => i.waMessageId),
        col((i) => i.to),
        col((i) => i.body),
        col((i) => (i.media ? JSON.stringify(i.media) : null)),
        col((i) => i.kind ?? 'send'),
        col((i) => i.sentAt ?? null),
      ],
    );
  });

  /** Newest first. */
  async page(connectionId: number, companyId: number, pageNumber: number): Promise<{ items: SandboxOutboxItem[]; hasMore: boolean }> {
    const raw = await this.db.query(
      `SELECT o."waMessageId", o."to", o.body, o."sentAt", o.media, o.kind, COALESCE(s.ack, 0) AS ack
         FROM whatsapp.sandbox_outbox o
         LEFT JOIN whatsapp.sent_messages s ON s."connectionId" = o."connectionId" AND s."waMessageId" = o."waMessageId"
        WHERE o."connectionId" = $1 AND o."companyId" = $2
        ORDER BY o.id DESC
        LIMIT $3 OFFSET $4`,
      [connectionId, companyId, OUTBOX_PAGE_SIZE + 1, (pageNumber - 1) * OUTBOX_PAGE_SIZE],
    );
    const rows = rowsOf<{
      waMessageId: string;
      to: string;
      body: string;
      sentAt: Date;
      ack: number;
      media: SandboxOutboxItem['media'];
      kind: SandboxOutboxItem['kind'];
    }>(raw);
    return {
      items: rows.slice(0, OUTBOX_PAGE_SIZE).map((r) => ({
        waMessageId: r.waMessageId,
        to: r.to,
        body: r.body,
        ack: Number(r.ack),
        sentAt: new Date(r.sentAt).toISOString(),
        media: r.media ?? null,
        kind: r.kind,
      })),
      hasMore: rows.length > OUTBOX_PAGE_SIZE,
    };
  }
}
