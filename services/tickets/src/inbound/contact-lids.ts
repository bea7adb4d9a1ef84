import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { TicketSubjects, type ContactDeletedEvent, type TicketDeletedEvent, type WaInboundMessage } from '@wa/contracts';
import { inboundContactNumber, lidAddress, lidOfAddress } from '@wa/domain';
import type { DataSource, EntityManager } from 'typeorm';
import { contactUpdated, contactView } from '../conversation/contacts/contacts.service.js';
import { ticketUpdatedEvent } from '../conversation/core/ticket-events.js';
import { ticketView } from '../conversation/core/ticket-view.js';
import { TicketsRepository } from '../conversation/core/tickets.repository.js';
import type { ContactEntity } from '../database/entities/index.js';
import { CallerService } from '../identity/caller.service.js';
import { Outbox, type OutgoingEvent } from '../outbox/outbox.service.js';
import {
  CONTACT_BY_ID,
  COPY_TICKET_TAGS,
  DELETE_CONTACT,
  DELETE_TICKET,
  FILL_FROM_LID_CONTACT,
  FORGET_LID,
  LID_CONTACT_TO_NUMBER,
  LOCKED_CONTACTS,
  MERGED_TICKET_COUNTS,
  MERGE_LOCK,
  MOVE_CONTACT_MESSAGES,
  MOVE_CONTACT_NOTES,
  MOVE_CONTACT_SCHEDULES,
  MOVE_CONTACT_TICKETS,
  MOVE_TICKET_MESSAGES,
  MOVE_TICKET_NOTES,
  MOVE_TICKET_SCHEDULES,
  NUMBERS_OF_LIDS,
  OPEN_ON_BOTH,
  OPEN_TICKET_IDS,
  SET_LID,
} from './contact-lids.queries.js';

/** Merges of one company run one at a time (and a bare-LID batch's check waits for the one under way). */
const LOCK_SPACE = 0x4c1d; // "LID"

/** What a merge did, for its caller's log and tests. */
export interface LidMergeOutcome {
  /** 'merged': the LID's contact went into the number's; 'renamed': it became the number's contact; 'linked': the number's contact now knows its LID; 'none': nothing to do */
  kind: 'merged' | 'renamed' | 'linked' | 'none';
  contactId: number | null;
  /** the LID's tickets that went into the number's (deleted) → the number's ticket that holds their messages now */
  ticketsMerged: Map<number, number>;
}

/**
 * One customer, one contact, whatever WhatsApp calls them (issue 42 §2). A customer WhatsApp names only by a LID
 * (its number hidden) is the contact `<lid>@lid`, shown without a number, answered at the LID. When WhatsApp tells
 * which number the LID stands for (`wa.lid.*`, from the company's LID map in whatsapp-sessions), the LID's contact
 * and the number's become one, in one transaction serialised per company: its tickets, messages, notes, tags and
 * schedules move to the number's contact (a conversation open on the same connection on both sides becomes one
 * ticket: the LID's messages, notes and tags go into the number's ticket, and the LID's ticket is deleted), the
 * contact's details fill what the number's lacks, and the LID is kept on it (`contacts.lid`). A later bare-LID
 * message finds the contact by its LID before it is stored (`resolve`), and a batch stored while a merge was
 * under way is merged once it commits (`settle`).
 */
@Injectable()
export class ContactLids {
  private readonly logger = new Logger(ContactLids.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly outbox: Outbox,
    private readonly tickets: TicketsRepository,
    private readonly callers: CallerService,
  ) {}

  /**
   * The batch with each bare-LID message of a LID a contact already carries under that contact's number (copies:
   * the delivered events stay as they came). Only a batch with a bare LID asks (one indexed read).
   */
  async resolve<T extends { data: WaInboundMessage }>(batch: T[]): Promise<T[]> {
    const bare = batch.filter((m) => !m.data.isGroup && lidOfAddress(m.data.from) !== null);
    if (bare.length === 0) return batch;
    const known = await this.numbersOf(
      this.db.manager,
      bare.map((m) => ({ companyId: m.data.companyId, lid: lidOfAddress(m.data.from) as string })),
    );
    if (known.size === 0) return batch;
    return batch.map((m) => {
      const lid = m.data.isGroup ? null : lidOfAddress(m.data.from);
      const number = lid === null ? undefined : known.get(`${m.data.companyId}|${lid}`);
      return number === undefined ? m : { ...m, data: { ...m.data, from: number, fromLid: lid as string } };
    });
  }

  /**
   * After a batch with bare-LID messages was stored: a merge that was under way meanwhile (its LID's contact read
   * before this batch's contact existed) is finished here, once it committed (the check waits for the company's
   * merge lock). Costs nothing for a batch without a bare LID.
   */
  async settle(batch: ReadonlyArray<{ data: WaInboundMessage }>): Promise<Map<number, number>> {
    const merged = new Map<number, number>();
    const lids = new Map<string, { companyId: number; lid: string }>();
    for (const { data } of batch) {
      const lid = data.isGroup ? null : lidOfAddress(data.from);
      if (lid !== null) lids.set(`${data.companyId}|${lid}`, { companyId: data.companyId, lid });
    }
    if (lids.size === 0) return merged;
    for (const companyId of new Set([...lids.values()].map((l) => l.companyId))) {
      const mine = [...lids.values()].filter((l) => l.companyId === companyId);
      const known = await this.db.transaction(async (tx) => {
        await this.lock(tx, companyId);
        return this.numbersOf(tx, mine);
      });
      for (const { lid } of mine) {
        const number = known.get(`${companyId}|${lid}`);
        if (number === undefined) continue;
        for (const [from, to] of (await this.merge(companyId, lid, number)).ticketsMerged) merged.set(from, to);
      }
    }
    return merged;
  }

  /**
   * WhatsApp told that `lid` stands for the number `pn`: the LID's contact and the number's become one (see the
   * class). Repeating it changes nothing.
   */
  async merge(companyId: number, lid: string, pn: string): Promise<LidMergeOutcome> {
    const number = inboundContactNumber(pn, false);
    const { outcome, outboxIds } = await this.db.transaction(async (tx) => {
      await this.lock(tx, companyId);
      return this.mergeIn(tx, companyId, lid, number);
    });
    if (outboxIds.length > 0) {
      await this.outbox.flush(outboxIds);
      this.logger.log({ companyId, lid, contactId: outcome.contactId, kind: outcome.kind }, 'a LID and its number are one contact');
    }
    return outcome;
  }

  private async mergeIn(
    tx: EntityManager,
    companyId: number,
    lid: string,
    number: string,
  ): Promise<{ outcome: LidMergeOutcome; outboxIds: string[] }> {
    const rows = (await tx.query(LOCKED_CONTACTS, [companyId, [lidAddress(lid), number], lid])) as ContactEntity[];
    const byLid = rows.find((c) => c.number === lidAddress(lid)) ?? null;
    const byNumber = rows.find((c) => c.number === number) ?? null;
    // the LID named another number before (WhatsApp moved it): that contact lets it go
    const stale = rows.filter((c) => c.lid === lid && c !== byNumber && c !== byLid).map((c) => c.id);
    if (stale.length > 0) await tx.query(FORGET_LID, [companyId, stale]);

    const events: OutgoingEvent[] = [];
    let outcome: LidMergeOutcome;
    const ticketsMerged = new Map<number, number>();
    if (!byLid && !byNumber) return { outcome: { kind: 'none', contactId: null, ticketsMerged }, outboxIds: [] };
    if (!byLid && byNumber) {
      if (byNumber.lid === lid) return { outcome: { kind: 'none', contactId: byNumber.id, ticketsMerged }, outboxIds: [] };
      await tx.query(SET_LID, [companyId, byNumber.id, lid]);
      outcome = { kind: 'linked', contactId: byNumber.id, ticketsMerged };
    } else if (byLid && !byNumber) {
      // the LID's contact becomes the number's: its name stays unless it was the LID's address itself
      await tx.query(LID_CONTACT_TO_NUMBER, [companyId, byLid.id, number, lid]);
      outcome = { kind: 'renamed', contactId: byLid.id, ticketsMerged };
      events.push(...(await this.ticketEvents(tx, companyId, byLid.id)));
    } else {
      const from = byLid as ContactEntity;
      const into = byNumber as ContactEntity;
      events.push(...(await this.moveInto(tx, companyId, from.id, into.id, ticketsMerged)));
      await tx.query(FILL_FROM_LID_CONTACT, [companyId, into.id, from.id, lid]);
      await tx.query(DELETE_CONTACT, [companyId, from.id]);
      events.push({
        subject: TicketSubjects.contactDeleted(companyId, from.id),
        msgId: `contact-deleted:${from.id}`,
        payload: { companyId, contactId: from.id } satisfies ContactDeletedEvent,
      });
      outcome = { kind: 'merged', contactId: into.id, ticketsMerged };
    }
    const [contact] = (await tx.query(CONTACT_BY_ID, [companyId, outcome.contactId])) as ContactEntity[];
    if (contact) events.push(contactUpdated(contactView(contact)));
    return { outcome, outboxIds: await this.outbox.add(tx, events) };
  }

  /**
   * Everything of contact `from` goes to contact `into`. A conversation open on the same connection on both sides
   * becomes the number's ticket: the LID's messages, notes and tags move into it, unread counts add up, its last
   * message is the newer of the two, and the LID's ticket is deleted. Answers the events the screens need.
   */
  private async moveInto(
    tx: EntityManager,
    companyId: number,
    from: number,
    into: number,
    ticketsMerged: Map<number, number>,
  ): Promise<OutgoingEvent[]> {
    const pairs = (await tx.query(OPEN_ON_BOTH, [companyId, from, into])) as Array<{
      lidTicket: number;
      numberTicket: number;
      queueId: number | null;
      userId: number | null;
    }>;
    const events: OutgoingEvent[] = [];
    for (const p of pairs) {
      const args = [companyId, p.lidTicket, p.numberTicket, into];
      await tx.query(MOVE_TICKET_MESSAGES, args);
      await tx.query(MOVE_TICKET_NOTES, args);
      await tx.query(MOVE_TICKET_SCHEDULES, args.slice(0, 3));
      await tx.query(COPY_TICKET_TAGS, args.slice(0, 3));
      await tx.query(MERGED_TICKET_COUNTS, args.slice(0, 3));
      await tx.query(DELETE_TICKET, [companyId, p.lidTicket]);
      ticketsMerged.set(p.lidTicket, p.numberTicket);
      events.push({
        subject: TicketSubjects.ticketDeleted(companyId, p.lidTicket),
        msgId: `ticket-deleted:${p.lidTicket}`,
        payload: { companyId, ticketId: p.lidTicket, queueId: p.queueId, userId: p.userId } satisfies TicketDeletedEvent,
      });
    }
    // the rest (closed conversations, or open on a connection the number has none on) change hands as they are
    await tx.query(MOVE_CONTACT_TICKETS, [companyId, from, into]);
    await tx.query(MOVE_CONTACT_MESSAGES, [companyId, from, into]);
    await tx.query(MOVE_CONTACT_NOTES, [companyId, from, into]);
    await tx.query(MOVE_CONTACT_SCHEDULES, [companyId, from, into]);
    events.push(...(await this.ticketEvents(tx, companyId, into)));
    return events;
  }

  /** `ticket.updated` for each of the contact's conversations still going (their contact changed). */
  private async ticketEvents(tx: EntityManager, companyId: number, contactId: number): Promise<OutgoingEvent[]> {
    const ids = ((await tx.query(OPEN_TICKET_IDS, [companyId, contactId])) as Array<{ id: number }>).map((r) => r.id);
    const rows = await this.tickets.findByIds(companyId, ids, tx);
    return rows.map((row) => ticketUpdatedEvent(ticketView(row, (userId) => this.callers.nameOf(companyId, userId))));
  }

  /** The company's merge lock, held to the end of `tx`. */
  private async lock(tx: EntityManager, companyId: number): Promise<void> {
    await tx.query(MERGE_LOCK, [LOCK_SPACE, companyId]);
  }

  /** The numbers of the contacts that carry these LIDs, by `companyId|lid`. */
  private async numbersOf(db: EntityManager, lids: ReadonlyArray<{ companyId: number; lid: string }>): Promise<Map<string, string>> {
    const rows = (await db.query(NUMBERS_OF_LIDS, [lids.map((l) => l.companyId), lids.map((l) => l.lid)])) as Array<{
      companyId: number;
      lid: string;
      number: string;
    }>;
    return new Map(rows.map((r) => [`${r.companyId}|${r.lid}`, r.number]));
  }
}
