/** spec 01 §4 "Message acknowledgement icons": 0 clock; 1 and 2 single tick; 3 double tick; 4 and 5 blue double tick. */
export type AckIconKind = 'clock' | 'sent' | 'delivered' | 'read';

export function ackIcon(ack: number): AckIconKind {
  if (ack >= 4) return 'read';
  if (ack === 3) return 'delivered';
  if (ack >= 1) return 'sent';
  return 'clock';
}

/** A message whose send the phone session gave up (it never reached WhatsApp): still at ack 0, with a reason. */
export function sendFailed(ack: number, failedReason: string | null | undefined): failedReason is string {
  return ack === 0 && !!failedReason;
}
