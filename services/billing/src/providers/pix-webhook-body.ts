import { createHash, timingSafeEqual } from 'node:crypto';
import { DomainError } from '@wa/server-kit';

/**
 * One Pix received, as a PSP's webhook names it (Efí and the Banco Central's API: `{"pix":[{endToEndId, txid,
 * valor, horario, …}]}`). Only `txid` is used: what the Pix paid is read back from the provider, never taken from
 * the webhook.
 */
export interface WebhookPix {
  endToEndId: string;
  txid?: string;
  /** "49.90" */
  valor: string;
  /** ISO date-time */
  horario: string;
}

const invalid = (why: string) => new DomainError('ERR_VALIDATION', { details: [{ field: 'pix', messages: [why] }] }, `pix: ${why}`);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The `pix` entries of a webhook body, checked: each with an end-to-end id, a `valor` like 49.90 and an ISO
 * `horario`; `requireTxid`: each names its charge. Throws ERR_VALIDATION for a body that is not that shape.
 * Answers undefined when the body is JSON without a `pix` field (Efí's test call when a webhook is registered).
 */
export function webhookPixOf(rawBody: Buffer, requireTxid: boolean): WebhookPix[] | undefined {
  let body: unknown;
  try {
    body = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw invalid('the body is not JSON');
  }
  if (!isObject(body)) throw invalid('the body is not a JSON object');
  if (body.pix === undefined) return undefined;
  if (!Array.isArray(body.pix)) throw invalid('pix is not a list');
  return body.pix.map((p: unknown, i) => {
    if (!isObject(p)) throw invalid(`pix[${i}] is not an object`);
    const { endToEndId, txid, valor, horario } = p;
    if (typeof endToEndId !== 'string' || !/^[A-Za-z0-9]{1,64}$/.test(endToEndId))
      throw invalid(`pix[${i}].endToEndId is missing or malformed`);
    if (txid !== undefined && (typeof txid !== 'string' || !/^[A-Za-z0-9]{1,35}$/.test(txid))) throw invalid(`pix[${i}].txid is malformed`);
    if (requireTxid && txid === undefined) throw invalid(`pix[${i}].txid is missing`);
    if (typeof valor !== 'string' || !/^\d{1,10}\.\d{2}$/.test(valor)) throw invalid(`pix[${i}].valor is not an amount like 49.90`);
    if (typeof horario !== 'string' || Number.isNaN(Date.parse(horario))) throw invalid(`pix[${i}].horario is not a date-time`);
    return { endToEndId, valor, horario, ...(typeof txid === 'string' ? { txid } : {}) };
  });
}

/** The txids the entries name, each once, in order. */
export function txidsOf(pix: WebhookPix[]): string[] {
  return [...new Set(pix.flatMap((p) => (p.txid ? [p.txid] : [])))];
}

/** Whether two secrets are equal, in a time that does not depend on where they differ (nor on their lengths). */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** "49.90" → 4990 (the Pix API's amounts: decimal text with two decimals). */
export function centsOf(valor: string): number {
  const m = /^(\d{1,10})\.(\d{2})$/.exec(valor);
  if (!m) throw new Error(`not an amount: ${valor}`);
  return Number(m[1]) * 100 + Number(m[2]);
}

/** 4990 → "49.90" */
export function valorOf(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}
