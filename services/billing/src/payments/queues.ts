import type { JobsOptions } from 'bullmq';

/** billing's BullMQ queues of payments (their names alone: the jobs and their users import them). */
export const POLLS_QUEUE = 'billing-charge-polls';
export const RECEIPTS_QUEUE = 'billing-receipts';

export interface PollJob {
  txid: string;
  /** the last poll, at the charge's expiry: a charge still unpaid then is expired on our side */
  last: boolean;
}

/**
 * The fallback polls of an unpaid charge (issue 41 §6): at each of BILLING_POLL_DELAYS_MS after its creation and once
 * at its expiry. BullMQ delayed jobs (in Redis, AOF): a restart loses none; fixed ids: a charge polls once per slot.
 */
export function pollJobs(txid: string, expiresAt: Date, delays: string): Array<{ name: string; data: PollJob; opts: JobsOptions }> {
  const untilExpiry = Math.max(0, expiresAt.getTime() - Date.now());
  const slots = delays
    .split(',')
    .map(Number)
    .filter((ms) => ms > 0 && ms < untilExpiry);
  const opts = (jobId: string, delay: number): JobsOptions => ({
    jobId,
    delay,
    attempts: 5,
    backoff: { type: 'exponential', delay: 5000 },
    removeOnComplete: { age: 86_400 },
    removeOnFail: { age: 7 * 86_400 },
  });
  return [
    ...slots.map((delay, i) => ({ name: 'poll', data: { txid, last: false }, opts: opts(`poll-${txid}-${i}`, delay) })),
    // a few seconds after the expiry: the provider has settled any payment made at its last moment
    { name: 'poll', data: { txid, last: true }, opts: opts(`poll-${txid}-expiry`, untilExpiry + 5000) },
  ];
}

export interface ReceiptJob {
  paymentId: number;
}

export const receiptJobOptions = (paymentId: number): JobsOptions => ({
  jobId: `receipt-${paymentId}`,
  attempts: 8,
  backoff: { type: 'exponential', delay: 10_000 },
  removeOnComplete: { age: 86_400 },
  removeOnFail: { age: 30 * 86_400 },
});
