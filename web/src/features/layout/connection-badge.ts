import type { ConnectionStatus, WhatsappDto } from '@wa/contracts';

/** spec 01 §2: the connections item carries "!" when a connection is in one of these states. */
export const ATTENTION_STATUSES: readonly ConnectionStatus[] = ['qrcode', 'PAIRING', 'DISCONNECTED', 'TIMEOUT', 'OPENING'];

/** ... evaluated 2 seconds after load. */
export const BADGE_DELAY_MS = 2000;

export function connectionsNeedAttention(list: readonly Pick<WhatsappDto, 'status'>[] | undefined): boolean {
  return !!list?.some((w) => ATTENTION_STATUSES.includes(w.status));
}
