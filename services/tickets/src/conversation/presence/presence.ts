import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  PresenceSubjects,
  sessionCommandSubject,
  type ChatPresence,
  type PresenceCommand,
  type TicketPresence,
  type WaPresence,
} from '@wa/contracts';
import { lidOfAddress } from '@wa/domain';
import { announce, EventBus, listen, NoRespondersError, request } from '@wa/event-bus';
import { DomainError } from '@wa/server-kit';
import { DataSource } from 'typeorm';
import type { Caller } from '../../identity/caller.service.js';
import { TicketsRepository } from '../core/tickets.repository.js';
import { assertCanSee } from '../core/visibility.js';
import { TICKET_OF_LID, TICKET_OF_NUMBER } from './presence.queries.js';

/** An agent's same presence on a ticket is told to WhatsApp at most once in this long (the console sends it as they type). */
export const AGENT_PRESENCE_EVERY_MS = 2_500;
/** How long the session's holder may take to tell it (a presence later than this is worth nothing). */
const PRESENCE_TIMEOUT_MS = 3_000;
/** Tickets' replicas share customers' presences: one of them finds each one's ticket. */
const QUEUE = 'tickets-presence';
const THROTTLE_KEPT = 10_000;

/**
 * Presence both ways (issue 45 §5), never stored: a customer typing or recording (`presence.wa.*`, announced by the
 * session) goes to the chat box of their open ticket on that connection (`presence.ticket.<companyId>`, the realtime
 * gateway's); an agent typing in a ticket's chat is told to the customer through the session (`sendPresence`),
 * throttled per ticket and state. Both on core NATS: a presence lost on the way is only a header that says nothing.
 */
@Injectable()
export class ChatPresences implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ChatPresences.name);
  private stop: (() => void) | undefined;
  /** when each ticket's agent presence was last told, by `<companyId>:<ticketId>:<state>` */
  private readonly told = new Map<string, number>();

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly bus: EventBus,
    private readonly tickets: TicketsRepository,
  ) {}

  onApplicationBootstrap(): void {
    this.stop = listen<WaPresence>(this.bus, PresenceSubjects.allWa, (p) => this.customer(p), {
      queue: QUEUE,
      failed: (err) => this.logger.warn({ err: String(err) }, "presence: a customer's presence not passed on"),
    });
  }

  onApplicationShutdown(): void {
    this.stop?.();
  }

  /** A customer's presence, to the chat box of their open ticket on that connection (none: nobody is told). */
  async customer(p: WaPresence): Promise<void> {
    if (!Number.isSafeInteger(p?.companyId) || !Number.isSafeInteger(p?.connectionId) || typeof p.from !== 'string') return;
    const lid = lidOfAddress(p.from);
    const rows = (await this.db.query(
      lid ? TICKET_OF_LID : TICKET_OF_NUMBER,
      lid ? [p.companyId, p.connectionId, p.from, lid] : [p.companyId, p.connectionId, p.from],
    )) as Array<{ id: number }>;
    if (rows.length === 0) return;
    const event: TicketPresence = { companyId: p.companyId, ticketId: rows[0].id, state: p.state, at: p.at };
    announce(this.bus, PresenceSubjects.ticket(p.companyId), event);
  }

  /**
   * The agent types or records in a ticket's chat, or stops: told to the customer through the ticket's connection.
   * The ticket must be one the caller sees and not closed; the same state again within AGENT_PRESENCE_EVERY_MS, or a
   * session that is not up, tells nothing (a presence is worth a few seconds; the agent's typing never waits for it).
   */
  async agent(caller: Caller, ticketId: number, state: ChatPresence): Promise<void> {
    const row = await this.tickets.findById(caller.companyId, ticketId);
    if (!row) throw new DomainError('ERR_NO_TICKET_FOUND');
    assertCanSee(caller, row);
    if (row.status === 'closed') throw new DomainError('ERR_NO_PERMISSION');
    const key = `${caller.companyId}:${ticketId}:${state}`;
    const now = Date.now();
    if (now - (this.told.get(key) ?? 0) < AGENT_PRESENCE_EVERY_MS) return;
    if (this.told.size >= THROTTLE_KEPT) this.told.clear();
    this.told.set(key, now);
    const command: PresenceCommand = { action: 'sendPresence', to: row.contactNumber, state };
    try {
      const reply = await request<{ ok: boolean; code?: string }>(this.bus, sessionCommandSubject(row.whatsappId), command, {
        timeoutMs: PRESENCE_TIMEOUT_MS,
      });
      if (!reply.ok) this.logger.debug({ code: reply.code, ticketId }, 'presence: the session did not tell it');
    } catch (err) {
      if (!(err instanceof NoRespondersError)) this.logger.debug({ err: String(err), ticketId }, 'presence: not told');
    }
  }
}
