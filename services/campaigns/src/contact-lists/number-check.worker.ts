import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { NUMBER_CHECK_MANY_MAX, sessionCommandSubject, type NumberCheckManyCommand, type NumberCheckManyResult } from '@wa/contracts';
import { EventBus, NoRespondersError, request } from '@wa/event-bus';
import { InjectRedis, PeriodicTask, RedisLease } from '@wa/server-kit';
import type { Redis } from 'ioredis';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { CampaignsEnv } from '../config/env.js';
import { ConnectionsConsumer } from '../platform/connections.consumer.js';
import { ConnectionsRepository } from '../platform/connections.repository.js';
import { Outbox } from '../platform/outbox.service.js';
import { itemView, listEvent } from './contact-list-events.js';
import { ContactListsRepository } from './contact-lists.repository.js';
import { phoneNumberVariants } from '@wa/domain';
import { listNumber } from './list-number.js';

/** How long a query may take at the session's holder (Baileys asks WhatsApp once for the whole batch). */
const CHECK_TIMEOUT_MS = 15_000;
/** Companies looked at in one pass. */
const COMPANIES_PER_PASS = 200;
/** A company's check is one replica's while it holds this lease (renewed by each batch, dropped at the end of the pass). */
const COMPANY_LEASE_MS = 60_000;
/** Without anything new, a pass every this often finds what is still unchecked (a connection came back). */
const IDLE_PASS_MS = 5_000;

type Reply = { ok: true; result?: NumberCheckManyResult } | { ok: false; code?: string; message?: string };

const companyKey = (companyId: number) => `campaigns:number-check:company:${companyId}`;
const gapKey = (connectionId: number) => `campaigns:number-check:gap:${connectionId}`;

/**
 * The background check of list items on WhatsApp: items whose `isWhatsappValid` is still null are asked of the
 * company's checker connection (ConnectionsRepository.checker) NUMBER_CHECK_BATCH at a time in one `checkMany`
 * session command, at most one query every NUMBER_CHECK_GAP_MS per connection across all replicas (a Redis key
 * that lives for the gap), never in a request and never as a burst: frequent checks are a ban signal. One
 * replica checks a company at a time (a Redis lease), so no batch is asked twice. Without a connected connection,
 * or when its session does not answer, the items wait for a later pass.
 */
@Injectable()
export class NumberCheckWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(NumberCheckWorker.name);
  private readonly lease: RedisLease;
  private readonly task: PeriodicTask;
  private readonly batchSize: number;

  constructor(
    private readonly env: CampaignsEnv,
    private readonly repo: ContactListsRepository,
    private readonly connections: ConnectionsRepository,
    private readonly consumer: ConnectionsConsumer,
    private readonly outbox: Outbox,
    private readonly bus: EventBus,
    @InjectRedis() private readonly redis: Redis,
  ) {
    this.lease = new RedisLease(redis, { owner: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`, ttlMs: COMPANY_LEASE_MS });
    this.batchSize = Math.min(env.NUMBER_CHECK_BATCH, NUMBER_CHECK_MANY_MAX);
    this.task = new PeriodicTask({
      name: 'number check',
      everyMs: Math.max(250, Math.min(env.NUMBER_CHECK_GAP_MS, IDLE_PASS_MS)),
      run: () => this.pass(),
      logger: this.logger,
      runAtStart: true,
    });
  }

  onApplicationBootstrap(): void {
    // a connection that comes up checks what waited for it
    this.consumer.onStatus((c) => {
      if (c.status === 'CONNECTED') this.wake();
    });
    this.task.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.task.stop();
  }

  /** New items to check: a pass soon. */
  wake(): void {
    this.task.request();
  }

  /** One batch for each company with unchecked items whose connection's gap has passed; more wait for the next pass. */
  private async pass(): Promise<void> {
    let more = false;
    for (const companyId of await this.repo.companiesToCheck(COMPANIES_PER_PASS)) {
      if (await this.checkCompany(companyId)) more = true;
    }
    // a full batch went out: the next one is due after the gap, not at the next idle pass
    if (more) setTimeout(() => this.wake(), this.env.NUMBER_CHECK_GAP_MS).unref();
  }

  /** Answers true when a full batch was checked (more may be waiting). */
  private async checkCompany(companyId: number): Promise<boolean> {
    const connection = await this.connections.checker(companyId);
    if (!connection) return false;
    if (!(await this.lease.acquire(companyKey(companyId)))) return false;
    try {
      if (!(await this.takeGap(connection.id))) return false;
      const batch = await this.repo.uncheckedBatch(companyId, this.batchSize);
      if (batch.length === 0) return false;
      const answered = await this.ask(
        companyId,
        connection.id,
        batch.map((b) => b.number),
      );
      if (!answered) return false;
      const results = batch.map((b) => ({ id: b.id, number: b.number, valid: answered.get(b.number) ?? false }));
      const { ids } = await this.repo.transaction(async (tx) => {
        const rows = await this.repo.setChecked(tx, companyId, results);
        const events = rows.map((row) => listEvent(companyId, row.contactListId, { action: 'item', item: itemView(row) }));
        return { ids: await this.outbox.add(tx, events) };
      });
      await this.outbox.flush(ids);
      return batch.length === this.batchSize;
    } finally {
      await this.lease.release(companyKey(companyId)).catch(() => undefined);
    }
  }

  /** The connection's turn: at most one query per gap across the replicas. */
  private async takeGap(connectionId: number): Promise<boolean> {
    if (this.env.NUMBER_CHECK_GAP_MS <= 0) return true;
    return (await this.redis.set(gapKey(connectionId), '1', 'PX', this.env.NUMBER_CHECK_GAP_MS, 'NX')) === 'OK';
  }

  /** Which of the numbers are on WhatsApp (by the number asked, in any of its forms), or null when nobody could tell. */
  private async ask(companyId: number, connectionId: number, numbers: string[]): Promise<Map<string, boolean> | null> {
    const command: NumberCheckManyCommand = { action: 'checkMany', numbers };
    let reply: Reply;
    try {
      reply = await request<Reply>(this.bus, sessionCommandSubject(connectionId), command, { timeoutMs: CHECK_TIMEOUT_MS });
    } catch (err) {
      if (!(err instanceof NoRespondersError))
        this.logger.warn({ err: (err as Error).message, companyId, connectionId }, 'number check not answered; the items wait');
      return null;
    }
    if (!reply?.ok || !Array.isArray(reply.result?.results)) {
      this.logger.warn(
        { companyId, connectionId, code: reply?.ok === false ? reply.code : undefined },
        'number check failed; the items wait',
      );
      return null;
    }
    const answered = new Map<string, boolean>();
    for (const r of reply.result.results) {
      const digits = String(r?.number ?? '').replace(/\D/g, '');
      for (const form of [digits, ...phoneNumberVariants(listNumber(digits) ?? digits)])
        if (r.exists || !answered.has(form)) answered.set(form, Boolean(r.exists));
    }
    return answered;
  }
}
