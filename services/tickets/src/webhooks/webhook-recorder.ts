import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import {
  webhookMessageStatus,
  type ConnectionSessionEvent,
  type ContactUpdatedEvent,
  type MessageEvent,
  type TicketUpdatedEvent,
  type WebhookConnectionQrcodeData,
  type WebhookConnectionStatusData,
  type WebhookEvent,
  type WebhookMessageStatusData,
} from '@wa/contracts';
import { PeriodicTask, type OutgoingEvent } from '@wa/server-kit';
import type { DataSource, EntityManager } from 'typeorm';
import { Outbox, type OutboxTap } from '../outbox/outbox.service.js';
import { INSERT_WEBHOOK_DELIVERIES, SELECT_ENABLED_WEBHOOKS, UPSERT_WEBHOOK_TICKET_STATUS } from './webhook-recorder.queries.js';

/** How often the companies with a webhook are read again (another process may have changed them). */
const RELOAD_MS = 10_000;

interface Row {
  companyId: number;
  /**
   * the delivery's lane (webhook_deliveries."ticketId": one lane's deliveries go in order, one at a time): the
   * ticket's id, or for an event of no ticket the negated id of what it is about (a contact's, a connection's)
   */
  ticketId: number;
  /** the ticket the body names; null for a connection's or a contact's event */
  bodyTicketId: number | null;
  event: WebhookEvent;
  key: string;
  payload: unknown;
}

/** A lane of its own for what is not a ticket's (see Row.ticketId): its events in order, apart from the tickets'. */
const laneOf = (id: number) => -Math.abs(id);

/**
 * Writes the webhook deliveries of a transaction's events in that same transaction (tickets' outbox calls
 * it, as its tap, for every event it writes or records alone), so a delivery exists exactly when its change committed, in the order
 * the changes were made. Only companies with an enabled webhook pay anything beyond a lookup in memory.
 */
@Injectable()
export class WebhookRecorder implements OutboxTap, OnModuleInit, OnModuleDestroy {
  private readonly log = new Logger(WebhookRecorder.name);
  private companies = new Map<number, Set<WebhookEvent>>();
  private readonly reloading = new PeriodicTask({ name: 'webhook settings', everyMs: RELOAD_MS, run: () => this.reload() });

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    outbox: Outbox,
  ) {
    outbox.tap(this);
  }

  async onModuleInit(): Promise<void> {
    await this.reload().catch((err: unknown) => this.log.warn({ err: (err as Error)?.message }, 'webhook settings not read yet; retrying'));
    this.reloading.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.reloading.stop();
  }

  /** Reads again which companies want which events (at once after a change made here). */
  async reload(): Promise<void> {
    const rows: Array<{ companyId: number; events: WebhookEvent[] }> = await this.db.query(SELECT_ENABLED_WEBHOOKS);
    this.companies = new Map(rows.map((r) => [r.companyId, new Set(r.events)]));
  }

  /** Whether some of these events make webhook deliveries (a company listens for them). */
  wants(events: readonly OutgoingEvent[]): boolean {
    return this.companies.size > 0 && events.some((e) => this.companies.has(Number(e.subject.split('.')[2])));
  }

  async record(tx: EntityManager, events: readonly OutgoingEvent[]): Promise<void> {
    if (!this.wants(events)) return;
    const rows: Row[] = [];
    const statuses: Array<{ companyId: number; ticketId: number; status: string; key: string; payload: TicketUpdatedEvent }> = [];
    for (const e of events) {
      const [kind, action, company, ticket] = e.subject.split('.');
      const companyId = Number(company);
      const wanted = this.companies.get(companyId);
      if (!wanted) continue;
      const ticketId = Number(ticket);
      if (kind === 'message' && (action === 'created' || action === 'updated')) {
        const p = e.payload as MessageEvent;
        const event: WebhookEvent = action === 'updated' ? 'message.updated' : p.message?.fromMe ? 'message.sent' : 'message.received';
        if (wanted.has(event)) rows.push({ companyId, ticketId, bodyTicketId: ticketId, event, key: e.msgId, payload: p });
        // one of our messages reached a delivery status: told once per status (its key), however often it is announced
        const status = p.message?.fromMe ? webhookMessageStatus(Number(p.message.ack)) : null;
        if (status && wanted.has('message.status')) {
          const data: WebhookMessageStatusData = { messageId: p.message.id, ticketId, ack: Number(p.message.ack), status };
          rows.push({
            companyId,
            ticketId,
            bodyTicketId: ticketId,
            event: 'message.status',
            key: `status:${p.message.id}:${status}`,
            payload: data,
          });
        }
        // a new message carries its ticket as it left it (no ticket.updated follows it): a new ticket's first status
        if (action === 'created' && wanted.has('ticket.status') && p.ticket?.status) {
          const payload: TicketUpdatedEvent = { companyId, ticket: p.ticket };
          statuses.push({ companyId, ticketId, status: p.ticket.status, key: `${p.ticket.status}:${e.msgId}`, payload });
        }
      } else if (kind === 'contact' && action === 'updated' && wanted.has('contact.updated')) {
        const p = e.payload as ContactUpdatedEvent;
        if (p.contact)
          rows.push({
            companyId,
            ticketId: laneOf(p.contact.id),
            bodyTicketId: null,
            event: 'contact.updated',
            key: e.msgId,
            payload: p.contact,
          });
      } else if (kind === 'ticket' && action === 'updated' && wanted.has('ticket.status')) {
        const p = e.payload as TicketUpdatedEvent;
        if (p.ticket?.status)
          statuses.push({ companyId, ticketId, status: p.ticket.status, key: `${p.ticket.status}:${e.msgId}`, payload: p });
      }
    }
    if (statuses.length > 0) {
      // a ticket's status is told when it differs from the last one told (a new ticket's first one too)
      const last = new Map(statuses.map((s) => [`${s.companyId}|${s.ticketId}`, s]));
      const changed: Array<{ companyId: number; ticketId: number }> = await tx.query(UPSERT_WEBHOOK_TICKET_STATUS, [
        [...last.values()].map((s) => s.companyId),
        [...last.values()].map((s) => s.ticketId),
        [...last.values()].map((s) => s.status),
      ]);
      for (const c of changed) {
        const s = last.get(`${c.companyId}|${c.ticketId}`);
        if (s)
          rows.push({
            companyId: s.companyId,
            ticketId: s.ticketId,
            bodyTicketId: s.ticketId,
            event: 'ticket.status',
            key: s.key,
            payload: s.payload,
          });
      }
    }
    await this.insert(tx, rows);
  }

  /** Whether the company's webhook listens for any of these events (its settings as last read). */
  companyWants(companyId: number, events: readonly WebhookEvent[]): boolean {
    const wanted = this.companies.get(companyId);
    return !!wanted && events.some((e) => wanted.has(e));
  }

  /**
   * The deliveries of a connection's session event (whatsapp-sessions' `connection.session`, WebhookConnectionsConsumer):
   * `connection.status` when its status differs from the last one told (remembered beside the tickets' as the
   * connection's lane, its negated id), `connection.qrcode` for each new QR code. Answers how many were written.
   */
  async recordSession(tx: EntityManager, e: ConnectionSessionEvent): Promise<number> {
    const wanted = this.companies.get(e.companyId);
    if (!wanted) return 0;
    const lane = laneOf(e.connectionId);
    const rows: Row[] = [];
    if (wanted.has('connection.status')) {
      const changed: unknown[] = await tx.query(UPSERT_WEBHOOK_TICKET_STATUS, [[e.companyId], [lane], [e.status]]);
      if (changed.length > 0) {
        const data: WebhookConnectionStatusData = {
          connectionId: e.connectionId,
          name: e.session?.name ?? '',
          status: e.status,
          number: e.session?.number ?? null,
        };
        const key = `connection-status:${e.connectionId}:${e.status}:${e.session?.updatedAt ?? ''}`;
        rows.push({ companyId: e.companyId, ticketId: lane, bodyTicketId: null, event: 'connection.status', key, payload: data });
      }
    }
    if (wanted.has('connection.qrcode') && e.status === 'qrcode' && e.qrcode) {
      const data: WebhookConnectionQrcodeData = { connectionId: e.connectionId, qrcode: e.qrcode };
      const key = `connection-qrcode:${e.connectionId}:${createHash('sha256').update(e.qrcode).digest('base64url')}`;
      rows.push({ companyId: e.companyId, ticketId: lane, bodyTicketId: null, event: 'connection.qrcode', key, payload: data });
    }
    await this.insert(tx, rows);
    return rows.length;
  }

  private async insert(tx: EntityManager, all: Row[]): Promise<void> {
    // one delivery per event and key, the first (a batch may name a message's same status twice)
    const seen = new Set<string>();
    const rows = all.filter((r) => {
      const id = `${r.companyId}|${r.event}|${r.key.slice(0, 300)}`;
      return seen.has(id) ? false : (seen.add(id), true);
    });
    if (rows.length === 0) return;
    const at = new Date().toISOString();
    await tx.query(INSERT_WEBHOOK_DELIVERIES, [
      rows.map((r) => r.companyId),
      rows.map((r) => r.ticketId),
      rows.map((r) => r.event),
      rows.map((r) => r.key.slice(0, 300)),
      rows.map((r) =>
        JSON.stringify({ event: r.event, companyId: r.companyId, ticketId: r.bodyTicketId, occurredAt: at, data: r.payload }),
      ),
    ]);
  }
}
