import { createHash, randomBytes } from 'node:crypto';

/** Random bytes drawn from the system at a time: one call of the generator for 512 ids instead of one per id. */
const POOL_BYTES = 4096;
const ID_BYTES = 8;
let pool = Buffer.alloc(0);
let offset = 0;

/**
 * A WhatsApp message id as WhatsApp Web makes them (`3EB0` and 16 upper-case hex digits), chosen before
 * sending (an agent's or the bot's message) or for a message the sandbox phone receives. The random digits
 * come from a pool filled by the system's generator: asking it for 8 bytes per id cost the bot benchmark's
 * services ~130 ms of CPU a run.
 */
export function whatsappMessageId(): string {
  if (offset + ID_BYTES > pool.length) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  const digits = pool.toString('hex', offset, offset + ID_BYTES).toUpperCase();
  offset += ID_BYTES;
  return `3EB0${digits}`;
}

/**
 * The WhatsApp id of a campaign row's send (`part` 0: the message or confirmation, 1…: the files after it), the
 * same every time it is asked: a send published twice (a crash between publishing and recording) is a duplicate
 * the session drops. Same shape as whatsappMessageId.
 */
export function campaignWaMessageId(companyId: number, shippingId: string | number, kind: 'confirmation' | 'message', part = 0): string {
  const digits = createHash('sha256')
    .update(`campaign:${companyId}:${shippingId}:${kind}:${part}`)
    .digest('hex')
    .slice(0, 16)
    .toUpperCase();
  return `3EB0${digits}`;
}
