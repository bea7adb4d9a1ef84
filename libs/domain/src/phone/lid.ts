/**
 * WhatsApp's LIDs (linked identities): an id WhatsApp names a customer by instead of their phone number. A message
 * whose number WhatsApp hides is the conversation of the LID's address, `<lid>@lid` (a contact's "number" until
 * WhatsApp tells which number the LID stands for); its digits alone are never taken for a phone number.
 */

/** A LID's digits as WhatsApp gives them (6 to 30). */
export const LID_DIGITS = /^\d{6,30}$/;

/** A LID's address (`<digits>@lid`), as a bare-LID message's `from` and its contact's number carry it. */
export function lidAddress(lid: string): string {
  return `${lid}@lid`;
}

/** The LID of an address `<digits>@lid`; null for anything else (a phone number, a group). */
export function lidOfAddress(address: string): string | null {
  // most addresses are numbers: they cost a suffix check (every message and ticket view asks)
  if (!address.endsWith('@lid')) return null;
  return /^(\d{6,30})@lid$/.exec(address)?.[1] ?? null;
}

/** A contact's number as shown and answered: '' for a LID's address (no number is known), the number otherwise. */
export function shownNumber(number: string): string {
  return lidOfAddress(number) === null ? number : '';
}
