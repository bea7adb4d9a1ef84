import type { ConnectionStatus } from '../whatsapp/whatsapp.types.js';

/**
 * The `data` of the webhook events that are not a message's or a ticket's own (issue 45 §3). Every delivery's
 * body is `{ event, companyId, ticketId, occurredAt, data }`; `ticketId` is null for the connection's and the
 * contact's events.
 */

/** `connection.status`: a connection's session moved to another status. */
export interface WebhookConnectionStatusData {
  connectionId: number;
  name: string;
  status: ConnectionStatus;
  number: string | null;
}

/** `connection.qrcode`: a new QR code to scan (the connection waits for a pairing). */
export interface WebhookConnectionQrcodeData {
  connectionId: number;
  qrcode: string;
}

/** A sent message's delivery status, from its ack: sent (1–2), delivered (3), read (4), played (5). */
export type WebhookMessageStatus = 'sent' | 'delivered' | 'read' | 'played';

/** `message.status`: one of our messages' delivery status rose (told once per status). */
export interface WebhookMessageStatusData {
  messageId: number;
  ticketId: number;
  ack: number;
  status: WebhookMessageStatus;
}

/** A message's ack as the `message.status` webhook tells it; null below sent (queued, or given up). */
export function webhookMessageStatus(ack: number): WebhookMessageStatus | null {
  if (ack >= 5) return 'played';
  if (ack === 4) return 'read';
  if (ack === 3) return 'delivered';
  if (ack >= 1) return 'sent';
  return null;
}
