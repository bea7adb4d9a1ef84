import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FileMediaType } from '@wa/server-kit';
import { DomainError } from '@wa/server-kit';
import { DataSource, In, type EntityManager } from 'typeorm';
import { ContactEntity, ScheduleEntity, TicketEntity } from '../database/entities/index.js';
import { CallerService } from '../identity/caller.service.js';
import { ConversationSender, type OutgoingItem } from '../conversation/sending/conversation-sender.js';
import { Outbox, type OutgoingEvent } from '../outbox/outbox.service.js';
import { ReadModels } from '../read-models/read-models.repository.js';
import { ticketUpdatedEvent } from '../conversation/core/ticket-events.js';
import { ticketView, type TicketRow } from '../conversation/core/ticket-view.js';
import { TicketsRepository } from '../conversation/core/tickets.repository.js';
import { scheduleUpdatedEvent } from './schedule-view.js';
import { MARK_SCHEDULES_SENT, OPEN_TICKETS_OF_CONTACTS } from './schedule-sender.queries.js';

/** A due send: the schedule and the time its job was made for. */
export interface DueSchedule {
  companyId: number;
  scheduleId: number;
  sendAt: Date;
}

/** Schedules sent in one transaction at most. */
const MAX_BATCH = 200;
/** Transactions in flight at once. */
const MAX_IN_FLIGHT = 2;

interface Waiting {
  due: DueSchedule;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * Sends due schedules exactly once. Under the rows' locks it checks each schedule still waits for that very
 * time, opens or reuses its contact's ticket, and stores the message (sent like an agent's, through the
 * outbox to the connection's session) with `sentAt` and status ENVIADA, all in one transaction. A second run
 * (a job added twice, a worker that died after the commit) finds it sent and does nothing.
 *
 * Jobs due together are sent together: `send()` joins the batch being gathered, and a batch (up to
 * MAX_BATCH, MAX_IN_FLIGHT at once) shares one transaction, so 10,000 schedules of one minute cost a few
 * hundred transactions, not 10,000. A schedule the batch cannot send (its contact gone, its connection
 * down) fails alone; a batch that fails as a whole is tried again one schedule at a time, so one bad
 * schedule never holds back the others.
 */
@Injectable()
export class ScheduleSender {
  private readonly log = new Logger(ScheduleSender.name);
  private queue: Waiting[] = [];
  private inFlight = 0;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly tickets: TicketsRepository,
    private readonly readModels: ReadModels,
    private readonly sender: ConversationSender,
    private readonly outbox: Outbox,
    private readonly callers: CallerService,
  ) {}

  /** Sends the schedule with the batch it joins; rejects with this schedule's own failure. */
  send(companyId: number, scheduleId: number, sendAt: Date): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ due: { companyId, scheduleId, sendAt }, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < MAX_IN_FLIGHT && this.queue.length > 0) {
      // gathered on the next turn, so jobs fetched together go together
      this.inFlight++;
      setImmediate(() => {
        const batch = this.queue.splice(0, MAX_BATCH);
        void this.run(batch).finally(() => {
          this.inFlight--;
          this.pump();
        });
      });
    }
  }

  private async run(batch: Waiting[]): Promise<void> {
    if (batch.length === 0) return;
    try {
      const failed = await this.sendMany(batch.map((w) => w.due));
      for (const w of batch) {
        const err = failed.get(w.due.scheduleId);
        if (err) w.reject(err);
        else w.resolve();
      }
    } catch (err) {
      if (batch.length === 1) {
        batch[0]?.reject(err);
        return;
      }
      this.log.warn({ err: (err as Error)?.message, schedules: batch.length }, 'batch of schedules not sent; sending them one by one');
      for (const w of batch) await this.run([w]);
    }
  }

  /**
   * One transaction for the lot; answers the failures of single schedules (by id), which sent nothing.
   * Throws when the transaction itself failed: then nothing of the batch was sent.
   */
  private async sendMany(due: DueSchedule[]): Promise<Map<number, DomainError>> {
    const failed = new Map<number, DomainError>();
    const outboxIds = await this.db.transaction(async (tx) => {
      const waiting = await this.waiting(tx, due);
      const contacts = new Map(
        (await tx.getRepository(ContactEntity).findBy({ id: In([...new Set([...waiting.values()].map((s) => s.contactId))]) })).map((c) => [
          c.id,
          c,
        ]),
      );
      const sendable: Array<{ s: ScheduleEntity; contact: ContactEntity }> = [];
      for (const s of waiting.values()) {
        const contact = contacts.get(s.contactId);
        if (contact && contact.companyId === s.companyId) sendable.push({ s, contact });
        else failed.set(s.id, new DomainError('ERR_NO_CONTACT_FOUND'));
      }
      const events: OutgoingEvent[] = [];
      const rows = await this.ticketsFor(tx, sendable, events, (s, err) => failed.set(s.id, err));
      // the schedule's contact as `recipient`: an item's `contact` is a contact card to send
      const items: Array<OutgoingItem & { s: ScheduleEntity; recipient: ContactEntity }> = [];
      const up = new Map<string, boolean>();
      for (const { s, contact } of sendable) {
        const row = rows.get(`${s.companyId}|${s.contactId}`);
        if (!row) continue;
        const key = `${row.companyId}|${row.whatsappId}`;
        if (!up.has(key)) up.set(key, (await this.readModels.connection(row.companyId, row.whatsappId, tx))?.status === 'CONNECTED');
        if (!up.get(key)) {
          failed.set(s.id, new DomainError('ERR_WAPP_NOT_INITIALIZED'));
          continue;
        }
        const media = s.mediaPath
          ? {
              key: s.mediaPath,
              fileName: s.mediaName ?? 'file',
              mimetype: s.mediaMimetype ?? 'application/octet-stream',
              size: s.mediaSize ?? 0,
              mediaType: (s.mediaType ?? 'image') as FileMediaType,
            }
          : undefined;
        items.push({ s, recipient: contact, row, body: await this.sender.withVariables(row, s.body, tx), media });
      }
      if (items.length === 0) return this.outbox.add(tx, events);
      const sent = await this.sender.sendManyInTransaction(tx, items);
      const marked: Array<{ id: number; sentAt: Date; updatedAt: Date }> = await tx
        .query(MARK_SCHEDULES_SENT, [items.map((i) => i.s.id), items.map((i) => i.row.id)])
        .then((r: [Array<{ id: number; sentAt: Date; updatedAt: Date }>, number]) => r[0]);
      const byId = new Map(marked.map((m) => [m.id, m]));
      for (const { s, recipient: contact, row } of items) {
        const m = byId.get(s.id);
        if (!m) continue;
        const saved = Object.assign(new ScheduleEntity(), s, {
          status: 'ENVIADA',
          sentAt: m.sentAt,
          updatedAt: m.updatedAt,
          ticketId: row.id,
          reason: null,
        });
        events.push(scheduleUpdatedEvent({ ...saved, contactName: contact.name, contactNumber: contact.number }));
      }
      return [...sent.outboxIds, ...(await this.outbox.add(tx, events))];
    });
    await this.outbox.flush(outboxIds);
    return failed;
  }

  /** The last attempt failed: status ERRO with the reason (unless it was sent or changed meanwhile). */
  async fail(companyId: number, scheduleId: number, sendAt: Date, reason: string): Promise<void> {
    const outboxIds = await this.db.transaction(async (tx) => {
      const s = (await this.waiting(tx, [{ companyId, scheduleId, sendAt }])).get(scheduleId);
      if (!s) return [];
      await tx.getRepository(ScheduleEntity).update({ id: s.id }, { status: 'ERRO', reason: reason.slice(0, 1000) });
      const saved = (await tx.getRepository(ScheduleEntity).findOneBy({ id: s.id })) as ScheduleEntity;
      const contact = await tx.getRepository(ContactEntity).findOneBy({ id: s.contactId, companyId });
      return this.outbox.add(tx, [
        scheduleUpdatedEvent({ ...saved, contactName: contact?.name ?? null, contactNumber: contact?.number ?? null }),
      ]);
    });
    await this.outbox.flush(outboxIds);
  }

  /**
   * The schedules, locked (in id order, so two batches never wait on each other in a circle), that still
   * wait to be sent at their job's time (a moved one's old job finds another time).
   */
  private async waiting(tx: EntityManager, due: DueSchedule[]): Promise<Map<number, ScheduleEntity>> {
    const rows = await tx.getRepository(ScheduleEntity).find({
      where: { id: In(due.map((d) => d.scheduleId)) },
      order: { id: 'ASC' },
      lock: { mode: 'pessimistic_write' },
    });
    const out = new Map<number, ScheduleEntity>();
    for (const s of rows) {
      // a moved schedule's old job and its new one may share a batch: the one with its time sends it
      const mine = due.some((d) => d.scheduleId === s.id && d.companyId === s.companyId && d.sendAt.getTime() === s.sendAt.getTime());
      if (!mine || s.status !== 'PENDENTE' || s.sentAt) continue;
      out.set(s.id, s);
    }
    return out;
  }

  /**
   * Each contact's ticket that is still going (open or pending, the latest), or a new one on the company's
   * default connection, open and held by the (first) schedule's author; by `companyId|contactId`.
   */
  private async ticketsFor(
    tx: EntityManager,
    sendable: Array<{ s: ScheduleEntity; contact: ContactEntity }>,
    events: OutgoingEvent[],
    refuse: (s: ScheduleEntity, err: DomainError) => void,
  ): Promise<Map<string, TicketRow>> {
    const out = new Map<string, TicketRow>();
    if (sendable.length === 0) return out;
    const pairs = [...new Map(sendable.map(({ s }) => [`${s.companyId}|${s.contactId}`, [s.companyId, s.contactId] as const])).values()];
    const going: Array<{ id: number; companyId: number; contactId: number }> = await tx.query(OPEN_TICKETS_OF_CONTACTS, [
      pairs.map((p) => p[0]),
      pairs.map((p) => p[1]),
    ]);
    for (const row of await this.tickets.findByKeys(going, tx)) out.set(`${row.companyId}|${row.contactId}`, row);
    for (const { s, contact } of sendable) {
      const key = `${s.companyId}|${s.contactId}`;
      if (out.has(key)) continue;
      const connection = await this.readModels.defaultConnection(s.companyId, tx);
      if (!connection) {
        refuse(s, new DomainError('ERR_NO_DEF_WAPP_FOUND'));
        continue;
      }
      const saved = await tx.getRepository(TicketEntity).save(
        tx.getRepository(TicketEntity).create({
          companyId: s.companyId,
          contactId: contact.id,
          whatsappId: connection.id,
          queueId: null,
          userId: s.userId,
          status: 'open',
          isGroup: contact.isGroup,
        }),
      );
      const row = (await this.tickets.findById(s.companyId, saved.id, tx)) as TicketRow;
      out.set(key, row);
      events.push(ticketUpdatedEvent(ticketView(row, (id) => this.callers.nameOf(s.companyId, id))));
    }
    return out;
  }
}
