import { randomBytes } from 'node:crypto';

/** A WhatsApp message id as WhatsApp Web makes them (`3EB0` + 16 hex), chosen before sending. */
export function newWhatsappMessageId(): string {
  return `3EB0${randomBytes(8).toString('hex').toUpperCase()}`;
}
