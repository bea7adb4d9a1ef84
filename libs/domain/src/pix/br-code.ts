/**
 * The Pix BR Code ("Pix copia e cola", the text of a Pix QR code): EMV QRCPS-MPM as the Banco Central's BR Code
 * manual and its Pix initiation manual profile it. Every field is TLV: a 2-digit id, a 2-digit length (at most 99)
 * and the value. A code is, in this order:
 *
 *   00 `01` (payload format) · 01 `12` when the code may be paid only once (optional) · 26 the merchant account
 *   (00 GUI `br.gov.bcb.pix`, then 01 the Pix key or 25 the location URL of a dynamic code, and 02 an optional
 *   description) · 52 `0000` · 53 `986` (BRL) · 54 the amount with two decimals (omitted: the payer types it)
 *   · 58 `BR` · 59 the merchant's name (≤ 25) · 60 its city (≤ 15) · 62 (05 the txid, `***` when none)
 *   · 63 the CRC-16/CCITT-FALSE of everything before it, `6304` included, in 4 upper-case hex digits.
 *
 * No library: the format is small and its vectors are public (see br-code.spec.ts).
 */

/** What a BR Code carries; `encodeBrCode` writes it, `decodeBrCode` reads it back (plus the code's CRC). */
export interface BrCodeFields {
  /** the receiver's Pix key (e-mail, phone, CPF/CNPJ or random key): a static code. Exactly one of key and url. */
  key?: string;
  /** the payload location of a dynamic code, without `https://` (the PSP answers the charge there) */
  url?: string;
  /** shown to the payer (26/02); folded to ASCII when written */
  description?: string;
  /** integer cents; absent: the payer types the amount */
  amountCents?: number;
  /** folded to ASCII and cut to 25 when written */
  merchantName: string;
  /** folded to ASCII and cut to 15 when written */
  merchantCity: string;
  /** the receiver's reference for the payment (62/05), at most 25 characters; absent: `***` */
  txid?: string;
  /** 01: `11` the code may be paid again, `12` once only; absent: the field is not written */
  pointOfInitiation?: '11' | '12';
}

export interface DecodedBrCode extends BrCodeFields {
  /** the code's own CRC (63), which matched */
  crc: string;
}

/** A BR Code that cannot be written or read; the message says which field and why. */
export class BrCodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BrCodeError';
  }
}

export const PIX_GUI = 'br.gov.bcb.pix';
export const MERCHANT_NAME_MAX = 25;
export const MERCHANT_CITY_MAX = 15;
/** A static code's txid (62/05, the EMV reference label): at most 25 characters. */
export const BR_CODE_TXID_MAX = 25;
const NO_TXID = '***';

/**
 * CRC-16/CCITT-FALSE (poly 0x1021, initial 0xFFFF, no reflection, no final xor) of the text's UTF-8 bytes, as 4
 * upper-case hex digits: `crc16CcittFalse('123456789') === '29B1'`.
 */
export function crc16CcittFalse(text: string): string {
  let crc = 0xffff;
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/**
 * The text as a BR Code name or city may carry it: accents stripped (São → Sao, Ç → C), other characters outside
 * printable ASCII dropped, spaces collapsed, then cut to `max` characters.
 */
export function foldToAscii(text: string, max: number): string {
  const folded = text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return folded.slice(0, max).trimEnd();
}

function tlv(id: string, value: string): string {
  if (value.length > 99) throw new BrCodeError(`field ${id} is ${value.length} characters long; a BR Code field holds at most 99`);
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}

/** 4990 → `49.90`: integer arithmetic, no floating point. */
function amountText(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** Writes the BR Code of `fields` with its CRC. Throws BrCodeError for what a BR Code cannot hold. */
export function encodeBrCode(fields: BrCodeFields): string {
  const { key, url, description, amountCents, txid, pointOfInitiation } = fields;
  if ((key === undefined) === (url === undefined))
    throw new BrCodeError('a BR Code carries either a Pix key or a location URL, not both nor neither');
  if (key !== undefined && !/^[\x21-\x7e]{1,77}$/.test(key))
    throw new BrCodeError('the Pix key must be 1 to 77 printable ASCII characters');
  if (url !== undefined && (!/^[\x21-\x7e]{1,77}$/.test(url) || /^https?:\/\//i.test(url)))
    throw new BrCodeError('the location URL must be 1 to 77 characters, without its https:// scheme');
  if (amountCents !== undefined && (!Number.isSafeInteger(amountCents) || amountCents <= 0 || amountText(amountCents).length > 13))
    throw new BrCodeError('the amount must be a positive whole number of cents of at most 13 characters written');
  if (txid !== undefined && !new RegExp(`^[\\x21-\\x7e]{1,${BR_CODE_TXID_MAX}}$`).test(txid))
    throw new BrCodeError(`the txid must be 1 to ${BR_CODE_TXID_MAX} printable ASCII characters without spaces`);
  const merchantName = foldToAscii(fields.merchantName, MERCHANT_NAME_MAX);
  const merchantCity = foldToAscii(fields.merchantCity, MERCHANT_CITY_MAX);
  if (!merchantName) throw new BrCodeError('the merchant name is empty once folded to ASCII');
  if (!merchantCity) throw new BrCodeError('the merchant city is empty once folded to ASCII');
  const info = description === undefined ? '' : foldToAscii(description, 99);

  const account = tlv('00', PIX_GUI) + (key !== undefined ? tlv('01', key) : tlv('25', url as string)) + (info ? tlv('02', info) : '');
  const body =
    tlv('00', '01') +
    (pointOfInitiation ? tlv('01', pointOfInitiation) : '') +
    tlv('26', account) +
    tlv('52', '0000') +
    tlv('53', '986') +
    (amountCents !== undefined ? tlv('54', amountText(amountCents)) : '') +
    tlv('58', 'BR') +
    tlv('59', merchantName) +
    tlv('60', merchantCity) +
    tlv('62', tlv('05', txid ?? NO_TXID)) +
    '6304';
  return body + crc16CcittFalse(body);
}

interface Field {
  id: string;
  value: string;
}

/** Splits TLV text into its fields; `where` names the template in messages. */
function fieldsOf(text: string, where: string): Field[] {
  const out: Field[] = [];
  let at = 0;
  while (at < text.length) {
    const head = text.slice(at, at + 4);
    if (!/^\d{4}$/.test(head)) throw new BrCodeError(`${where}: expected a field id and length at position ${at}, found "${head}"`);
    const id = head.slice(0, 2);
    const length = Number(head.slice(2));
    const value = text.slice(at + 4, at + 4 + length);
    if (value.length < length)
      throw new BrCodeError(`${where}: field ${id} says ${length} characters but only ${value.length} follow (a truncated code?)`);
    out.push({ id, value });
    at += 4 + length;
  }
  return out;
}

function one(fields: Field[], id: string, where: string, name: string): string {
  const found = fields.filter((f) => f.id === id);
  const [first, ...more] = found;
  if (!first) throw new BrCodeError(`${where}: the mandatory field ${id} (${name}) is missing`);
  if (more.length > 0) throw new BrCodeError(`${where}: field ${id} (${name}) appears ${found.length} times`);
  return first.value;
}

function amountCentsOf(text: string): number {
  const m = /^(\d{1,10})(?:\.(\d{1,2}))?$/.exec(text);
  if (!m) throw new BrCodeError(`field 54 (amount) "${text}" is not an amount like 49.90`);
  return Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0'));
}

/**
 * Reads a BR Code. Throws BrCodeError when a field's length runs past the end (a truncated code) or does not parse,
 * when a mandatory field is missing or wrong (00 `01`, a Pix merchant account with a key or a URL, 52, 53 `986`,
 * 58 `BR`, 59, 60, 62/05, 63 last) or when the CRC does not match.
 */
export function decodeBrCode(code: string): DecodedBrCode {
  const text = code.trim();
  const top = fieldsOf(text, 'BR Code');
  const last = top[top.length - 1];
  if (!last || last.id !== '63') throw new BrCodeError('BR Code: the last field must be 63 (CRC)');
  if (!/^[0-9A-Fa-f]{4}$/.test(last.value)) throw new BrCodeError(`BR Code: field 63 (CRC) "${last.value}" is not 4 hex digits`);
  const expected = crc16CcittFalse(text.slice(0, text.length - 4));
  if (last.value.toUpperCase() !== expected)
    throw new BrCodeError(`BR Code: the CRC is ${last.value} but the code's content gives ${expected} (a mistyped or altered code)`);
  if (top[0]?.id !== '00' || top[0].value !== '01') throw new BrCodeError('BR Code: it must start with field 00 (payload format) = 01');

  // the Pix merchant account: one of the templates 26 to 51 whose GUI is br.gov.bcb.pix (in any case)
  const accounts = top
    .filter((f) => Number(f.id) >= 26 && Number(f.id) <= 51)
    .map((f) => fieldsOf(f.value, `field ${f.id} (merchant account)`))
    .filter((sub) => sub.find((s) => s.id === '00')?.value.toLowerCase() === PIX_GUI);
  const [account, ...others] = accounts;
  if (!account) throw new BrCodeError(`BR Code: the mandatory merchant account with GUI ${PIX_GUI} is missing`);
  if (others.length > 0) throw new BrCodeError(`BR Code: ${accounts.length} merchant accounts with GUI ${PIX_GUI}; a code has one`);
  const key = account.find((s) => s.id === '01')?.value;
  const url = account.find((s) => s.id === '25')?.value;
  if ((key === undefined) === (url === undefined))
    throw new BrCodeError('BR Code: the merchant account must hold either a Pix key (01) or a URL (25)');
  const description = account.find((s) => s.id === '02')?.value;

  const pointOfInitiation = top.find((f) => f.id === '01')?.value;
  if (pointOfInitiation !== undefined && pointOfInitiation !== '11' && pointOfInitiation !== '12')
    throw new BrCodeError(`BR Code: field 01 (point of initiation) "${pointOfInitiation}" is not 11 or 12`);
  if (!/^\d{4}$/.test(one(top, '52', 'BR Code', 'merchant category code')))
    throw new BrCodeError('BR Code: field 52 (merchant category code) is not 4 digits');
  if (one(top, '53', 'BR Code', 'currency') !== '986') throw new BrCodeError('BR Code: field 53 (currency) is not 986 (BRL)');
  if (one(top, '58', 'BR Code', 'country') !== 'BR') throw new BrCodeError('BR Code: field 58 (country) is not BR');
  const merchantName = one(top, '59', 'BR Code', 'merchant name');
  const merchantCity = one(top, '60', 'BR Code', 'merchant city');
  const amount = top.find((f) => f.id === '54')?.value;
  const additional = fieldsOf(one(top, '62', 'BR Code', 'additional data'), 'field 62 (additional data)');
  const txid = one(additional, '05', 'field 62', 'txid');

  return {
    ...(key !== undefined ? { key } : { url: url as string }),
    ...(description !== undefined ? { description } : {}),
    ...(amount !== undefined ? { amountCents: amountCentsOf(amount) } : {}),
    merchantName,
    merchantCity,
    ...(txid !== NO_TXID ? { txid } : {}),
    ...(pointOfInitiation !== undefined ? { pointOfInitiation } : {}),
    crc: last.value.toUpperCase(),
  };
}
