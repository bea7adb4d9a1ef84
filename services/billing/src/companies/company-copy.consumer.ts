import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { signServiceToken } from '@wa/auth';
import {
  Streams,
  type CompanyBillingCopy,
  type CompanyCreatedEvent,
  type CompanyDeletedEvent,
  type CompanyUpdatedEvent,
} from '@wa/contracts';
import { EventBus, type BusMessage, type ConsumerHandle } from '@wa/event-bus';
import { DataSource } from 'typeorm';
import { BillingEnv } from '../config/env.js';
import { InvoicesService } from '../invoices/invoices.service.js';
import { CompanyCopyRepository, type CompanyState } from './company-copy.repository.js';

type CompanyEvent = CompanyCreatedEvent | CompanyUpdatedEvent | CompanyDeletedEvent;

const BACKFILL_PAGE = 500;

/**
 * Keeps billing's copy of auth's companies (plan, due date, recurrence, status, billing email) by their events
 * (`company.created|updated|deleted.<id>`, durable billing-companies), and at start fills it from auth's list
 * (companies made before billing kept a copy, or by the seed, have no events). Each change may make the company's
 * invoice (InvoicesService.companyChanged) in the same transaction.
 */
@Injectable()
export class CompanyCopyConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger(CompanyCopyConsumer.name);
  private handle: ConsumerHandle | undefined;
  private stopped = false;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly bus: EventBus,
    private readonly companies: CompanyCopyRepository,
    private readonly invoices: InvoicesService,
    private readonly env: BillingEnv,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // not awaited: AUTH is auth's to declare, and auth waits for billing's stream (its plans) at its own start; a
    // billing that waited for AUTH here would never answer while auth is down (or started after it)
    void this.consume().catch((err: Error) => this.log.error({ err: err.message }, 'company events not consumed'));
    void this.backfillUntilDone();
  }

  private async consume(): Promise<void> {
    const handle = await this.bus.consume<CompanyEvent>({
      stream: Streams.AUTH.name,
      durable: 'billing-companies',
      // created, updated, deleted: three tokens (no setting, schedule, announcement, help or payment event)
      filterSubjects: ['company.*.*'],
      orderKey: (subject) => subject.split('.')[2] ?? subject,
      handler: async (batch) => {
        for (const msg of batch) await this.onEvent(msg);
      },
    });
    // a shutdown that came while it waited for the stream
    if (this.stopped) await handle.stop();
    else this.handle = handle;
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.handle?.stop();
  }

  private async onEvent({ subject, data }: BusMessage<CompanyEvent>): Promise<void> {
    const action = subject.split('.')[1];
    if (!data || typeof data.companyId !== 'number') return;
    if (action === 'deleted') {
      await this.db.transaction(async (tx) => {
        const before = await this.companies.find(tx, data.companyId, true);
        await this.companies.delete(tx, data.companyId);
        await this.invoices.companyChanged(tx, before, undefined);
      });
      return;
    }
    const e = data as CompanyCreatedEvent & Partial<CompanyUpdatedEvent>;
    // an event older than billing's copy lacks the plan or the due date: auth's list at start fills those
    if (typeof e.planId !== 'number' || typeof e.dueDate !== 'string') return;
    await this.apply({
      companyId: e.companyId,
      name: e.name,
      planId: e.planId,
      status: e.status ?? true,
      dueDate: e.dueDate,
      at: e.at,
      ...(e.email !== undefined ? { email: e.email } : {}),
      ...(e.recurrence !== undefined ? { recurrence: e.recurrence } : {}),
    });
  }

  /** Applies one company's state and what follows from it, in one transaction. */
  async apply(state: CompanyState): Promise<void> {
    await this.db.transaction(async (tx) => {
      const { before, applied } = await this.companies.apply(tx, state);
      if (!applied) return;
      await this.invoices.companyChanged(tx, before, await this.companies.find(tx, state.companyId));
    });
  }

  /** Reads every company from auth, page by page; retried until it succeeds (auth may start after billing). */
  private async backfillUntilDone(): Promise<void> {
    for (let attempt = 0; !this.stopped; attempt++) {
      try {
        const n = await this.backfill();
        this.log.log({ companies: n }, 'company copy filled from auth');
        return;
      } catch (err) {
        if (attempt % 10 === 0) this.log.warn({ err: (err as Error).message }, 'company copy not filled from auth yet; retrying');
        await new Promise((r) => setTimeout(r, Math.min(30_000, 1000 * 2 ** Math.min(attempt, 5))).unref());
      }
    }
  }

  /** One pass over auth's companies; returns how many were read. */
  async backfill(): Promise<number> {
    let afterId = 0;
    let total = 0;
    const token = signServiceToken('billing', this.env.JWT_SECRET);
    for (;;) {
      const res = await fetch(`${this.env.AUTH_URL}/internal/companies/billing?afterId=${afterId}&limit=${BACKFILL_PAGE}`, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(10_000),
      });
      if (res.status !== 200) throw new Error(`auth answered ${res.status}`);
      const { companies } = (await res.json()) as { companies: CompanyBillingCopy[] };
      for (const c of companies) await this.apply(c);
      total += companies.length;
      if (companies.length < BACKFILL_PAGE) return total;
      afterId = companies.at(-1)?.companyId ?? afterId;
    }
  }
}
