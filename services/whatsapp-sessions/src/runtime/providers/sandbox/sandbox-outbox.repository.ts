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
  location?: SandboxOutboxItem['location'];
  contact?: SandboxOutboxItem['contact'];
  reaction?: SandboxOutboxItem['reaction'];
  kind?: SandboxOutboxItem['kind'];
  sentAt?: Date;
}

/**
 * The sandbox phone's record of what reached the customer, as WhatsApp delivers it: a send once per message id (a
 * transmission of an id already delivered only counts in its `transmissions`), each edit and deletion a row. The ack
 * each message reached is the session's (sent_messages.ack).
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

  private readonly recordTogether = writeBatcher<SandboxTransmission>(async (batch) => {
    // one row per send id in a statement (ON CONFLICT touches a row once); a repeat within the batch is counted
    const counts = new Map<string, number>();
    const items: SandboxTransmission[] = [];
    for (const i of batch) {
      const key = (i.kind ?? 'send') === 'send' ? `${i.connectionId}|${i.waMessageId}` : undefined;
      if (key && counts.has(key)) {
        counts.set(key, (counts.get(key) ?? 1) + 1);
        continue;
      }
      if (key) counts.set(key, 1);
      items.push(i);
    }
    const col = <T>(f: (i: SandboxTransmission) => T) => items.map(f);
    await this.keyed.query(
      `INSERT INTO whatsapp.sandbox_outbox ("connectionId", "companyId", "waMessageId", "to", body, media, kind, "sentAt", transmissions)
       SELECT conn, company, wid, "to", body, media, kind, COALESCE(at, now()), n
         FROM unnest($1::int[], $2::int[], $3::varchar[], $4::varchar[], $5::text[], $6::jsonb[], $7::varchar[], $8::timestamptz[], $9::int[])
              WITH ORDINALITY AS u(conn, company, wid, "to", body, media, kind, at, n, ord)
        ORDER BY ord
       ON CONFLICT ("connectionId", "waMessageId") WHERE kind = 'send'
       DO UPDATE SET transmissions = whatsapp.sandbox_outbox.transmissions + EXCLUDED.transmissions`,
      [
        col((i) => i.connectionId),
        col((i) => i.companyId),
        col((i) => i.waMessageId),
        col((i) => i.to),
        col((i) => i.body),
        // a place, a contact card or a reaction is kept in the same JSON column as a file (`what`), told apart on reading
        col((i) => {
          const what = i.location
            ? { location: i.location }
            : i.contact
              ? { contact: i.contact }
              : i.reaction
                ? { reaction: i.reaction }
                : null;
          return i.media ? JSON.stringify(i.media) : what ? JSON.stringify(what) : null;
        }),
        col((i) => i.kind ?? 'send'),
        col((i) => i.sentAt ?? null),
        col((i) => ((i.kind ?? 'send') === 'send' ? (counts.get(`${i.connectionId}|${i.waMessageId}`) ?? 1) : 1)),
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
      media: (SandboxOutboxItem['media'] & Pick<SandboxOutboxItem, 'location' | 'contact' | 'reaction'>) | null;
      kind: SandboxOutboxItem['kind'];
    }>(raw);
    return {
      items: rows.slice(0, OUTBOX_PAGE_SIZE).map((r) => ({
        waMessageId: r.waMessageId,
        to: r.to,
        body: r.body,
        ack: Number(r.ack),
        sentAt: new Date(r.sentAt).toISOString(),
        media: r.media?.mimetype ? r.media : null,
        ...(r.media?.location ? { location: r.media.location } : {}),
        ...(r.media?.contact ? { contact: r.media.contact } : {}),
        ...(r.media?.reaction ? { reaction: r.media.reaction } : {}),
        kind: r.kind,
      })),
      hasMore: rows.length > OUTBOX_PAGE_SIZE,
    };
  }
}
