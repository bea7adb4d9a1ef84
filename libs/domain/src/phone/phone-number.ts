import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** The country assumed for a number typed without one (the product serves Brazil first). */
export const DEFAULT_PHONE_COUNTRY = 'BR';

/** Brazilian mobile written the old way: 55, area code, then 8 digits starting 6–9 (the 9th digit missing). */
const BR_MOBILE_WITHOUT_NINTH = /^55([1-9]{2})([6-9]\d{7})$/;

/** The same typed without the country code: area code, then 8 digits starting 6–9. */
const BR_NATIONAL_MOBILE_WITHOUT_NINTH = /^([1-9]{2})([6-9]\d{7})$/;

/**
 * The one way a contact's number is stored: digits only, with the country code (E.164 without `+`), so
 * that "+55 (11) 98765-4321", "5511987654321" and "11 98765-4321" are one contact. A Brazilian mobile
 * written without its 9th digit (as WhatsApp still names older accounts: `551187654321`) gets it
 * (`5511987654321`), so both forms are one contact too. Answers null when the text is not a phone number.
 * Group ids (`1203…-1612…` or digits longer than any phone number) are not numbers: see `isGroupId`.
 */
export function canonicalPhoneNumber(input: string): string | null {
  let digits = String(input ?? '').replace(/\D/g, '');
  if (digits.length < 8 || digits.length > 15) return null;
  const brOld = BR_MOBILE_WITHOUT_NINTH.exec(digits) ?? BR_NATIONAL_MOBILE_WITHOUT_NINTH.exec(digits);
  if (brOld) digits = `55${brOld[1]}9${brOld[2]}`;
  const international = parsePhoneNumberFromString(`+${digits}`);
  if (international?.isValid()) return international.number.slice(1);
  const national = parsePhoneNumberFromString(digits, DEFAULT_PHONE_COUNTRY);
  if (national?.isValid()) {
    return national.number.slice(1);
  }
  return null;
}

/**
 * The number under which an inbound contact is kept. WhatsApp's ids are already digits with the country
 * code, so only the Brazilian 9th digit can differ from `canonicalPhoneNumber`: an old-form mobile gets it,
 * anything else (a group, an id no plan knows) stays as it came. A regular expression, not a parse: this
 * runs for every inbound message.
 */
export function inboundContactNumber(from: string, isGroup: boolean): string {
  if (isGroup) return from;
  const brOld = BR_MOBILE_WITHOUT_NINTH.exec(from);
  return brOld ? `55${brOld[1]}9${brOld[2]}` : from;
}

/** The Brazilian 9th-digit variants of a canonical number (itself first), for matching what WhatsApp calls it. */
export function phoneNumberVariants(canonical: string): string[] {
  const m = /^55([1-9]{2})9([6-9]\d{7})$/.exec(canonical);
  return m ? [canonical, `55${m[1]}${m[2]}`] : [canonical];
}
