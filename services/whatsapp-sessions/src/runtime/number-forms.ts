import { inboundContactNumber, phoneNumberVariants } from '@wa/domain';

/** A Brazilian mobile in either form: 55, the area code (DDD), the 9th digit or not, then 8 digits starting 6–9. */
const BR_MOBILE = /^55([1-9]{2})9?([6-9]\d{7})$/;

/**
 * The forms one number may take (itself first): a Brazilian mobile is kept with its 9th digit (libs/domain's
 * canonical number) while WhatsApp names many older accounts without it, so `5531987654321` and `553187654321`
 * are one customer (one refused under one form writes in under the other). Any other number has one form.
 */
export function numberForms(number: string): string[] {
  if (!BR_MOBILE.test(number)) return [number];
  const canonical = inboundContactNumber(number, false);
  return [number, ...phoneNumberVariants(canonical).filter((n) => n !== number)];
}

/**
 * The form WhatsApp most likely names a Brazilian mobile by, when it cannot be asked: the 9th digit reached the
 * area codes 11 to 28 (São Paulo, Rio de Janeiro, Espírito Santo) in 2012–2013, before WhatsApp began to name
 * accounts with it, and the others (DDD 31 and up) from 2014 on, so WhatsApp still names their older accounts
 * without it. DDD ≥ 31 → without the 9th digit (`553187654321`); below → with it (`5511987654321`). Any other
 * number as given.
 */
export function brazilianWhatsappForm(number: string): string {
  const m = BR_MOBILE.exec(number);
  if (!m) return number;
  const [, ddd = '', rest = ''] = m;
  return Number(ddd) >= 31 ? `55${ddd}${rest}` : `55${ddd}9${rest}`;
}
