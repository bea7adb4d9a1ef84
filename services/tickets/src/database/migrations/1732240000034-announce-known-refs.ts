import type { MigrationInterface, QueryRunner } from 'typeorm';
import { TicketSubjects, type PromptRefEvent, type QueueChangedEvent } from '@wa/contracts';
import { queueView } from '../../conversation/queues/queues.service.js';
import { QueueEntity } from '../entities/index.js';

/** Rows written to the outbox per INSERT. */
const CHUNK = 500;

/**
 * Issue 38 (item 8). Other services keep whose queues and prompts are whose from tickets' `queue.*` and
 * `prompt.*` events (auth: a user's queueIds; whatsapp-sessions: a connection's queueIds, transferQueueId,
 * promptId). Prompts were never announced before this, and a read model started now sees only the events the
 * TICKETS stream still holds (7 days): every prompt and queue that exists is announced once here, through the
 * outbox (published when tickets runs), as each write announces it from now on. A fresh database has none.
 * A service that starts reading later than the stream keeps them (7 days) would not see these.
 */
export class AnnounceKnownRefs1732240000034 implements MigrationInterface {
  name = 'AnnounceKnownRefs1732240000034';

  async up(q: QueryRunner): Promise<void> {
    const prompts: Array<{ id: number; companyId: number }> = await q.query(`SELECT id, "companyId" FROM tickets.prompts ORDER BY id`);
    await this.enqueue(
      q,
      prompts.map((p) => {
        const payload: PromptRefEvent = { companyId: Number(p.companyId), promptId: Number(p.id) };
        return {
          subject: TicketSubjects.promptUpdated(payload.companyId, payload.promptId),
          msgId: `prompt-known:${payload.promptId}`,
          payload,
        };
      }),
    );
    const queues = await q.manager.getRepository(QueueEntity).find({ order: { id: 'ASC' } });
    await this.enqueue(
      q,
      queues.map((row) => {
        const view = queueView(row);
        const payload: QueueChangedEvent = { companyId: row.companyId, queue: view };
        return { subject: TicketSubjects.queueUpdated(row.companyId, row.id), msgId: `queue-updated:${row.id}:${view.updatedAt}`, payload };
      }),
    );
  }

  async down(): Promise<void> {
    // announcements are not taken back
  }

  private async enqueue(q: QueryRunner, rows: Array<{ subject: string; msgId: string; payload: unknown }>): Promise<void> {
    for (let i = 0; i < rows.length; i += CHUNK) {
      const part = rows.slice(i, i + CHUNK);
      await q.query(
        `INSERT INTO tickets.outbox (subject, "msgId", payload) SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::jsonb[])`,
        [part.map((r) => r.subject), part.map((r) => r.msgId), part.map((r) => JSON.stringify(r.payload))],
      );
    }
  }
}
