import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import { DomainError } from '@wa/server-kit';
import type { Job } from 'bullmq';
import { CompanyStandings, refusalText } from '../../identity/company-standings.js';
import { ScheduleSender } from '../schedule-sender.js';
import { SCHEDULES_QUEUE, type SendScheduleData } from './schedule-jobs.js';

/**
 * Runs a schedule's send job at its time. A refusal (connection not connected, no connection at all) is
 * retried with back-off; after the last attempt the schedule is marked ERRO with the reason. A failure of
 * the infrastructure (PostgreSQL down) is not the schedule's fault: the job fails and the sweep puts it
 * back, so an outage is waited out. A worker killed mid-send leaves its job stalled: after the lock runs
 * out another worker takes it, and the sender finds it sent (or not) under the row's lock. Many jobs run
 * at once: the sender sends those that are due together in shared transactions.
 */
@Processor(SCHEDULES_QUEUE, { concurrency: 200, lockDuration: 10_000, stalledInterval: 3_000, maxStalledCount: 100 })
export class SendScheduleJob extends WorkerHost {
  private readonly log = new Logger(SendScheduleJob.name);

  constructor(
    private readonly sender: ScheduleSender,
    private readonly standings: CompanyStandings,
  ) {
    super();
  }

  async process(job: Job<SendScheduleData>): Promise<void> {
    const { scheduleId, companyId, sendAt } = job.data;
    // the one plan check: a company disabled, expired or whose plan lost schedules has it marked ERRO at once
    // (not held: a message sent weeks late, after a renewal, would surprise its customer)
    const refused = await this.standings.refusal(companyId, 'useSchedules');
    if (refused) {
      await this.sender.fail(companyId, scheduleId, new Date(sendAt), `ERR_NO_PERMISSION: ${refusalText(refused, 'useSchedules')}`);
      return;
    }
    try {
      await this.sender.send(companyId, scheduleId, new Date(sendAt));
    } catch (err) {
      const last = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (err instanceof DomainError && last) {
        await this.sender.fail(companyId, scheduleId, new Date(sendAt), `${err.code}: ${err.message}`);
        return;
      }
      this.log.warn({ scheduleId, attempt: job.attemptsMade + 1, err: (err as Error)?.message }, 'scheduled message not sent; retrying');
      throw err;
    }
  }
}
