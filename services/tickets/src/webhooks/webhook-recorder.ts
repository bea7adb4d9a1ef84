import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { MessageEvent, TicketUpdatedEvent, WebhookEvent } from '@wa/contracts';
import { PeriodicTask, type OutgoingEvent } from '@wa/server-kit';
import type { DataSource, EntityManager } from 'typeorm';
import { Outbox, type OutboxTap } from '../outbox/outbox.service.js';
import { INSERT_WEBHOOK_DELIVERIES, SELECT_ENABLED_WEBHOOKS, UPSERT_WEBHOOK_TICKET_STATUS } from './webhook-recorder.queries.js';

/** How often the companies with a webhook are read again (another process may have changed them). */
const RELOAD_MS = 10_000;

interface Row {
  companyId: number;
  ticketId: number;
  event: WebhookEvent;
  key: string;
  payload: unknown;
}

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
        if (wanted.has(event)) rows.push({ companyId, ticketId, event, key: e.msgId, payload: p });
        // a new message carries its ticket as it left it (no ticket.updated follows it): a new ticket's first status
        if (action === 'created' && wanted.has('ticket.status') && p.ticket?.status) {
          const payload: TicketUpdatedEvent = { companyId, ticket: p.ticket };
          statuses.push({ companyId, ticketId, status: p.ticket.status, key: `${p.ticket.status}:${e.msgId}`, payload });
        }
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
        if (s) rows.push({ companyId: s.companyId, ticketId: s.ticketId, event: 'ticket.status', key: s.key, payload: s.payload });
      }
    }
    if (rows.length === 0) return;
    const at = new Date().toISOString();
    await tx.query(INSERT_WEBHOOK_DELIVERIES, [
      rows.map((r) => r.companyId),
      rows.map((r) => r.ticketId),
      rows.map((r) => r.event),
      rows.map((r) => r.key.slice(0, 300)),
      rows.map((r) => JSON.stringify({ event: r.event, companyId: r.companyId, ticketId: r.ticketId, occurredAt: at, data: r.payload })),
    ]);
  }
}
