import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryPrepared } from '@wa/database';
import { PeriodicTask } from '@wa/server-kit';
import { DataSource, type EntityManager } from 'typeorm';
import { TicketsEnv } from '../../config/env.js';
import { CallerService } from '../../identity/caller.service.js';
import { ConversationSender } from '../../conversation/sending/conversation-sender.js';
import { Outbox } from '../../outbox/outbox.service.js';
import { ticketUpdatedEvent } from '../../conversation/core/ticket-events.js';
import { ticketView, type TicketRow } from '../../conversation/core/ticket-view.js';
import { TicketsRepository } from '../../conversation/core/tickets.repository.js';
import { CLOSE_IDLE_TICKET, IDLE_TICKETS, LOCK_IDLE_TICKET, TRANSFER_WAITING_TICKETS } from './ticket-expiry.queries.js';

/**
 * The clock's part of a conversation, every TICKET_EXPIRY_SWEEP_MS:
 * - a connection's `timeToTransfer` (minutes; 0: never): a waiting ticket nobody took, still in the bot's
 *   menu or in no queue, with no message for that long goes to the connection's `transferQueueId` (one of
 *   the company's queues), and the bot stops there: the customer who never picks still reaches agents;
 * - its `expiresTicket` (minutes; 0: never): an open or waiting conversation without a message for that
 *   long is closed, with the connection's `expiresInactiveMessage` sent to the customer first (when it has
 *   one and the phone is up).
 * Each ticket is re-checked under its lock (skipping one another process holds), so several processes
 * move or close each ticket once.
 */
@Injectable()
export class TicketExpiry implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(TicketExpiry.name);
  private readonly task: PeriodicTask;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly env: TicketsEnv,
    private readonly tickets: TicketsRepository,
    private readonly sender: ConversationSender,
    private readonly outbox: Outbox,
    private readonly callers: CallerService,
  ) {
    this.task = new PeriodicTask({
      name: 'ticket expiry',
      everyMs: env.TICKET_EXPIRY_SWEEP_MS,
      run: () => this.sweep(),
      logger: this.logger,
    });
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.task.stop();
  }

  /** One pass: moves the tickets waiting too long in the bot, then closes the idle ones; answers how many of each. */
  async sweep(): Promise<{ transferred: number; closed: number }> {
    const transferred = await this.transfer();
    return { transferred, closed: await this.expire() };
  }

  /** Waiting tickets past their connection's timeToTransfer, moved to its transfer queue (in one statement per batch). */
  private async transfer(): Promise<number> {
    const moved = await this.db.transaction(async (tx) => {
      const rows = await queryPrepared<{ id: number; companyId: number }>(tx, TRANSFER_WAITING_TICKETS, []);
      if (rows.length === 0) return { rows, outboxIds: [] as string[] };
      const views = await this.tickets.findByKeys(
        rows.map((r) => ({ companyId: r.companyId, id: r.id })),
        tx,
      );
      return {
        rows,
        outboxIds: await this.outbox.add(
          tx,
          views.map((row) => ticketUpdatedEvent(ticketView(row, (userId) => this.callers.nameOf(row.companyId, userId)))),
        ),
      };
    });
    if (moved.rows.length === 0) return 0;
    await this.outbox.flush(moved.outboxIds);
    this.logger.log(
      { transferred: moved.rows.length },
      'ticket transfer: tickets waiting too long in the bot moved to their transfer queue',
    );
    return moved.rows.length;
  }

  private async expire(): Promise<number> {
    const idle = await queryPrepared<{ id: number; companyId: number }>(this.db, IDLE_TICKETS, []);
    let closed = 0;
    for (const { id, companyId } of idle) {
      const outboxIds = await this.db.transaction((tx) => this.close(tx, companyId, id));
      if (outboxIds) {
        closed++;
        await this.outbox.flush(outboxIds);
      }
    }
    if (closed > 0) this.logger.log({ closed }, 'ticket expiry: idle tickets closed');
    return closed;
  }

  private async close(tx: EntityManager, companyId: number, id: number): Promise<string[] | null> {
    const [still] = await queryPrepared<{ message: string; status: string }>(tx, LOCK_IDLE_TICKET, [id, companyId]);
    if (!still) return null;
    const ids: string[] = [];
    const before = (await this.tickets.findById(companyId, id, tx)) as TicketRow;
    if (still.message.trim() && still.status === 'CONNECTED') {
      const text = await this.sender.withVariables(before, still.message, tx);
      ids.push(
        ...(await this.sender.sendManyInTransaction(tx, [{ row: before, body: text, bot: true }], { connectionsChecked: true })).outboxIds,
      );
    }
    await tx.query(CLOSE_IDLE_TICKET, [id, companyId]);
    const row = (await this.tickets.findById(companyId, id, tx)) as TicketRow;
    ids.push(...(await this.outbox.add(tx, [ticketUpdatedEvent(ticketView(row, (userId) => this.callers.nameOf(companyId, userId)))])));
    return ids;
  }
}
