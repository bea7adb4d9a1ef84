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

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** `ERR_SENDING_WAPP_MSG: <why>`: the spec's code the sessions put first, then what WhatsApp or the session said. */
const CODED = /^([A-Z][A-Z0-9_]*)(?::\s*([\s\S]*))?$/;

/**
 * A failed send's reason as the chat shows it: a code of the error catalogue (backendErrors) becomes its text, followed by
 * what came after the colon; a reason without a known code is shown as it is.
 */
export function failureText(failedReason: string, t: Translate): string {
  const reason = failedReason.trim();
  const [, code, why] = CODED.exec(reason) ?? [];
  const text = code ? t(`backendErrors.${code}`, { defaultValue: '' }) : '';
  if (!text) return reason;
  return why?.trim() ? `${text} (${why.trim()})` : text;
}
