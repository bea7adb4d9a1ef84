import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  sessionCommandSubject,
  Streams,
  WaSubjects,
  type CallRejectCommand,
  type ErrorCode,
  type WaCall,
  type WaInboundMessage,
} from '@wa/contracts';
import { companyTimeZone, TIME_ZONE_SETTING } from '@wa/domain';
import {
  EventBus,
  isTransientError,
  NoRespondersError,
  request,
  TransientError,
  type BusMessage,
  type ConsumerHandle,
} from '@wa/event-bus';
import { queryPrepared } from '@wa/database';
import { DomainError } from '@wa/server-kit';
import { DataSource, type EntityManager } from 'typeorm';
import { ConversationSender } from '../conversation/sending/conversation-sender.js';
import { announceStored } from '../conversation/core/announce.js';
import { TicketsRepository } from '../conversation/core/tickets.repository.js';
import type { TicketRow } from '../conversation/core/ticket-view.js';
import { contactUpdated, contactView } from '../conversation/contacts/contacts.service.js';
import { type ContactEntity, messageOfRow, type ConnectionEntity } from '../database/entities/index.js';
import { CallerService } from '../identity/caller.service.js';
import { ContactLids } from '../inbound/contact-lids.js';
import { storeInbound } from '../inbound/store-inbound.js';
import { Outbox } from '../outbox/outbox.service.js';
import { ReadModels } from '../read-models/read-models.repository.js';
import { SettingsMemo } from '../read-models/settings-memo.js';
import { SELECT_CALL_LINE, SELECT_CONTACT, SELECT_MESSAGE } from './calls.queries.js';
import { CALL_SETTING, CALLS_DISABLED_MESSAGE, missedCallLine, rejectsCalls } from './missed-calls.js';

/** How long the session's holder may take to reject a call. */
const REJECT_TIMEOUT_MS = 5_000;
/** Handler calls of one delivery that may wait for an unreachable holder (NATS away, the holder busy) before it is given up. */
const REJECT_ATTEMPTS = 3;

type Reply = { ok: true } | { ok: false; code?: ErrorCode; message?: string };

/**
 * `wa.call.*` (a customer calls one of the company's phones) and the company's `call` setting, as the product answers
 * them: while it is 'disabled', the session's holder rejects the call (`rejectCall`, asked as number checks are),
 * then, in one transaction, the call's line ("Chamada de voz/vídeo perdida às HH:mm", the customer's, unread) is
 * stored in the contact's open ticket, found or created as a customer's message would (`tickets.store_inbound`, under
 * the call's id), and the company's message sent through ConversationSender (stored, announced and published through
 * the outbox, its acks as any send's). The line's id makes this once per call: a redelivery finds it and does nothing.
 * 'enabled' (the default), a group call, or a session that refuses or cannot be reached: nothing but a log line, and
 * the event is acked, never retried without end.
 */
@Injectable()
export class WaCallsConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WaCallsConsumer.name);
  private handle: ConsumerHandle | undefined;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly bus: EventBus,
    private readonly settings: SettingsMemo,
    private readonly readModels: ReadModels,
    private readonly tickets: TicketsRepository,
    private readonly sender: ConversationSender,
    private readonly outbox: Outbox,
    private readonly callers: CallerService,
    private readonly lids: ContactLids,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.handle = await this.bus.consume<WaCall>({
      stream: Streams.WA.name,
      durable: 'tickets-calls',
      filterSubjects: [WaSubjects.allCalls],
      concurrency: 4,
      handler: async (batch) => {
        for (const m of batch) await this.answer(m);
      },
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.handle?.stop();
  }

  private async answer(m: BusMessage<WaCall>): Promise<void> {
    const call = m.data;
    if (!isCall(call)) {
      this.logger.warn({ subject: m.subject }, 'calls: malformed event skipped');
      return;
    }
    // as the product: a group call is left to ring
    if (call.isGroup) return;
    const value = (await this.settings.valuesOf([call.companyId], CALL_SETTING)).get(call.companyId);
    if (!rejectsCalls(value)) return;
    const log = { companyId: call.companyId, connectionId: call.connectionId, callId: call.callId };
    if ((await this.tickets.keyed(SELECT_CALL_LINE, [call.companyId, call.connectionId, call.callId])).length > 0) return;
    const connection = await this.readModels.connection(call.companyId, call.connectionId);
    if (!connection) {
      this.logger.warn(log, 'calls: a call to a connection tickets does not know; not answered');
      return;
    }
    if (!(await this.reject(call, m.attempt))) return;
    // a bare LID whose contact is known (WhatsApp told its number) is that contact's call
    const [line] = await this.lids.resolve([{ data: await this.lineOf(call) }]);
    try {
      await this.db.transaction((tx) => this.store(tx, call, line.data, connection, m.streamSeq));
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      // the ticket went away meanwhile (ERR_CREATING_MESSAGE): nothing stored, nothing sent
      this.logger.warn({ ...log, code: err.code }, 'calls: the rejected call was not written to its conversation');
    }
  }

  /**
   * The session's holder rejects the call; false (logged) when it cannot: no process holds the session, the phone
   * is not connected, WhatsApp refused. NATS away or a busy holder is waited for REJECT_ATTEMPTS calls of the handler.
   */
  private async reject(call: WaCall, attempt: number): Promise<boolean> {
    const log = { companyId: call.companyId, connectionId: call.connectionId, callId: call.callId };
    const command: CallRejectCommand = { action: 'rejectCall', callId: call.callId, from: call.from };
    let reply: Reply;
    try {
      reply = await request<Reply>(this.bus, sessionCommandSubject(call.connectionId), command, { timeoutMs: REJECT_TIMEOUT_MS });
    } catch (err) {
      if (err instanceof NoRespondersError) {
        this.logger.warn(log, 'calls: no session holds the connection; the call was not rejected');
        return false;
      }
      if (isTransientError(err) && attempt < REJECT_ATTEMPTS) throw err;
      this.logger.warn({ ...log, err: String(err) }, 'calls: the session did not answer; the call was not rejected');
      return false;
    }
    if (reply.ok) return true;
    if (reply.code === 'ERR_SERVICE_UNAVAILABLE' && attempt < REJECT_ATTEMPTS)
      throw new TransientError(`the session of connection ${call.connectionId} is unavailable`);
    this.logger.warn({ ...log, code: reply.code, why: reply.message }, 'calls: the session refused to reject the call');
    return false;
  }

  /** The call's line as a customer's message (under the call's id), its time on the company's clock. */
  private async lineOf(call: WaCall): Promise<WaInboundMessage> {
    const timeZone = companyTimeZone(await this.readModels.setting(call.companyId, TIME_ZONE_SETTING));
    return {
      companyId: call.companyId,
      connectionId: call.connectionId,
      waMessageId: call.callId,
      from: call.from,
      fromName: '',
      body: missedCallLine(new Date(call.at), timeZone),
      mediaType: 'call_log',
      fromMe: false,
      isGroup: false,
      timestamp: call.at,
      quotedWaMessageId: null,
    };
  }

  /**
   * The call's line in the contact's open ticket (found or created) and the company's message after it, in `tx`;
   * nothing when another delivery of the call stored the line first.
   */
  private async store(
    tx: EntityManager,
    call: WaCall,
    line: WaInboundMessage,
    connection: Pick<ConnectionEntity, 'id' | 'queueIds'>,
    seq: number,
  ): Promise<void> {
    const [stored] = await storeInbound(tx, [{ data: line, seq }], new Map([[connection.id, connection]]));
    if (!stored?.isNew) return;
    const [row] = await this.tickets.findByKeys([{ companyId: call.companyId, id: stored.ticketId }], tx);
    const [message] = await queryPrepared<Parameters<typeof messageOfRow>[0]>(tx, SELECT_MESSAGE, [call.companyId, stored.id]);
    if (!row || !message) throw new Error(`calls: the line of call ${call.callId} was stored and not found`);
    const lineRow = messageOfRow(message);
    const events = announceStored('created', [lineRow], [row], (companyId, id) => this.callers.nameOf(companyId, id));
    events.push(...(await this.newContact(tx, row, lineRow.createdAt)));
    await this.outbox.add(tx, events);
    // the session just rejected the call: the connection is up, whatever tickets' copy of its status says yet
    await this.sender.sendManyInTransaction(tx, [{ row, body: CALLS_DISABLED_MESSAGE }], { connectionsChecked: true });
  }

  /** A caller who never wrote got their contact with this line (its ticket made in the same statement): the contacts pages hear of it. */
  private async newContact(tx: EntityManager, row: TicketRow, storedAt: Date): Promise<ReturnType<typeof contactUpdated>[]> {
    if (new Date(row.createdAt).getTime() !== new Date(storedAt).getTime()) return [];
    const [contact] = await queryPrepared<ContactEntity>(tx, SELECT_CONTACT, [row.companyId, row.contactId]);
    return contact && new Date(contact.createdAt).getTime() === new Date(storedAt).getTime() ? [contactUpdated(contactView(contact))] : [];
  }
}

const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0 && v <= 2_147_483_647;

/** A call event as whatsapp-sessions publishes it. */
function isCall(c: WaCall | undefined): c is WaCall {
  return (
    !!c &&
    isId(c.companyId) &&
    isId(c.connectionId) &&
    typeof c.callId === 'string' &&
    /^[\w-]{1,128}$/.test(c.callId) &&
    typeof c.from === 'string' &&
    /^(\d{8,20}|\d{6,30}@lid)$/.test(c.from) &&
    Number.isFinite(c.at)
  );
}
