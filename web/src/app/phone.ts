import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

/**
 * A contact's number (stored as digits, with the country code) as people read it: `5511987654321` →
 * `+55 11 98765-4321`, `14155552671` → `+1 415 555 2671`. What is not a valid phone number (a group's id,
 * a LID, a short code, an empty value) shows as it is. For display only: inputs keep taking digits.
 * (The signed-in app's code only: the phone metadata stays out of the login page.)
 */
export function formatPhone(number: string | null | undefined): string {
  if (!number) return number ?? '';
  if (!/^\+?\d{8,15}$/.test(number)) return number;
  const phone = parsePhoneNumberFromString(number.startsWith('+') ? number : `+${number}`);
  if (!phone?.isValid()) return number;
  // Brazil (most of the contacts): its own grouping, with the hyphen, after the country code
  if (phone.country === 'BR') return `+55 ${phone.formatNational().replace(/[()]/g, '')}`;
  return phone.formatInternational();
}
