import { metricsRegistry } from '@wa/server-kit';
import type { WaInboundMessage } from '@wa/contracts';
import { Counter } from 'prom-client';

/**
 * History sync (issue 42 §9): what WhatsApp hands a newly linked session (Baileys' `messaging-history.set`; the
 * sandbox's POST …/sandbox/history). Its contacts and LID pairs are the providers' to keep; its messages reach the
 * inbound publisher marked `history`, and this is the one rule both providers' history goes through there: a message
 * is recent, and imported, when WhatsApp's clock says it was sent within the last `hours` hours (HISTORY_IMPORT_HOURS)
 * at the time it arrives; older ones are dropped. A message that is not a conversation's text or file (an
 * undecryptable stub: nobody would resend it) is dropped too.
 */

/** History messages per connection: `kept` true (published, each once) or false (too old, or nothing to show). */
const historyMessages = new Counter({
  name: 'whatsapp_sessions_history_messages_total',
  help: "Messages of WhatsApp's history sync per connection: kept (recent, published as history) or not (older, dropped)",
  labelNames: ['connectionId', 'kept'] as const,
  registers: [metricsRegistry],
});

/** Whether a history message is imported: sent within `hours` hours before `now`, and a conversation's content. */
export function isRecentHistory(message: Pick<WaInboundMessage, 'timestamp' | 'resend'>, hours: number, now = Date.now()): boolean {
  if (message.resend || hours <= 0) return false;
  return message.timestamp >= now - hours * 3_600_000;
}

/** Counts a history message of a connection as kept (published the first time) or dropped. */
export function countHistory(connectionId: number, kept: boolean): void {
  historyMessages.inc({ connectionId: String(connectionId), kept: String(kept) });
}
