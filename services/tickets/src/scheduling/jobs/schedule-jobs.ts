import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { countJobsOf, PeriodicTask } from '@wa/server-kit';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { TicketsEnv } from '../../config/env.js';
import { pendingSchedulesSql } from './schedule-jobs.queries.js';

export const SCHEDULES_QUEUE = 'schedules';

/** What a send job carries: the row is re-read when it runs; `sendAt` tells a moved schedule's old job. */
export interface SendScheduleData {
  scheduleId: number;
  companyId: number;
  sendAt: string;
}

/** One job per schedule and send time: adding it again is a no-op, so the sweep may add it freely. */
export const sendJobId = (scheduleId: number, sendAt: Date) => `schedule-${scheduleId}-${sendAt.getTime()}`;

/** How long a request waits for Redis to take a job; past it the sweep adds it later. */
const ADD_TIMEOUT_MS = 2000;
/** Rows swept per round. */
const SWEEP_BATCH = 2000;

/**
 * The delayed jobs that wake the sender at each schedule's sendAt (BullMQ, Redis with AOF). The rows
 * in PostgreSQL are the truth: a job added after the commit may be lost (Redis down, a crash between the
 * two, a Redis that lost its data), so a sweep at start puts back the job of every schedule still to send,
 * and a sweep every SCHEDULE_SWEEP_MS those of overdue ones. The sender re-checks the row under a lock,
 * so a job added twice, or one of an edited schedule, sends nothing twice.
 */
@Injectable()
export class ScheduleJobs implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger(ScheduleJobs.name);
  /** the first pass puts back every pending schedule's job, the later ones only the overdue ones' */
  private readonly task: PeriodicTask;
  private swept = false;

  constructor(
    @InjectQueue(SCHEDULES_QUEUE) private readonly queue: Queue<SendScheduleData>,
    @InjectDataSource() private readonly db: DataSource,
    private readonly env: TicketsEnv,
  ) {
    countJobsOf(this.queue);
    this.task = new PeriodicTask({
      name: 'schedule sweep',
      everyMs: env.SCHEDULE_SWEEP_MS,
      runAtStart: true,
      run: () => {
        const overdueOnly = this.swept;
        this.swept = true;
        return this.sweep(overdueOnly);
      },
    });
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.task.stop();
  }

  /** Asks for the send at `sendAt`; never fails the caller (the sweep makes up for a failure). */
  async schedule(s: { id: number; companyId: number; sendAt: Date }): Promise<void> {
    await this.withTimeout(this.add([s]), 'schedule job not added now; the sweep will add it');
  }

  /** The job of a schedule moved or deleted: removed when it is still waiting (a running one finds the row changed). */
  async cancel(s: { id: number; sendAt: Date }): Promise<void> {
    await this.withTimeout(
      this.queue.remove(sendJobId(s.id, s.sendAt)).then(() => undefined),
      'schedule job not removed; it will find the schedule changed',
    );
  }

  private add(rows: Array<{ id: number; companyId: number; sendAt: Date }>): Promise<unknown> {
    const now = Date.now();
    return this.queue.addBulk(
      rows.map((s) => ({
        name: 'send',
        data: { scheduleId: s.id, companyId: s.companyId, sendAt: s.sendAt.toISOString() },
        opts: {
          jobId: sendJobId(s.id, s.sendAt),
          delay: Math.max(0, s.sendAt.getTime() - now),
          attempts: this.env.SCHEDULE_ATTEMPTS,
          backoff: { type: 'exponential', delay: this.env.SCHEDULE_BACKOFF_MS },
          removeOnComplete: true,
          removeOnFail: true,
        },
      })),
    );
  }

  /**
   * Puts back the jobs of schedules still to send: all of them (at start), or only those whose time has
   * passed by more than a sweep interval (a job that should have run). Adding an existing job is a no-op.
   */
  async sweep(overdueOnly: boolean): Promise<void> {
    let after = { sendAt: new Date(0), id: 0 };
    try {
      for (;;) {
        const rows: Array<{ id: number; companyId: number; sendAt: Date }> = await this.db.query(
          pendingSchedulesSql(overdueOnly),
          overdueOnly ? [after.sendAt, after.id, SWEEP_BATCH, String(this.env.SCHEDULE_SWEEP_MS)] : [after.sendAt, after.id, SWEEP_BATCH],
        );
        if (rows.length === 0) return;
        await this.add(rows);
        const last = rows[rows.length - 1] as { id: number; sendAt: Date };
        after = { sendAt: last.sendAt, id: last.id };
        if (rows.length < SWEEP_BATCH) return;
      }
    } catch (err) {
      this.log.warn({ err: (err as Error)?.message }, 'schedule sweep failed; retrying at the next one');
    }
  }

  private async withTimeout(work: Promise<unknown>, warning: string): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ADD_TIMEOUT_MS)));
    try {
      if ((await Promise.race([work, late])) === 'late') this.log.warn(warning);
    } catch (err) {
      this.log.warn({ err: (err as Error)?.message }, warning);
    } finally {
      clearTimeout(timer);
      work.catch(() => undefined);
    }
  }
}
