import { canonicalPhoneNumber } from '@wa/domain';

/**
 * A typed number as a list keeps it: digits in the one form contacts are kept (`canonicalPhoneNumber`, so the
 * Brazilian 9th-digit variants are one), or the bare digits when no numbering plan knows it (WhatsApp's check
 * decides then). null: too short or too long to be a number (8 to 15 digits).
 */
export function listNumber(typed: string | null | undefined): string | null {
  const digits = String(typed ?? '').replace(/\D/g, '');
  if (digits.length < 8 || digits.length > 15) return null;
  return canonicalPhoneNumber(digits) ?? digits;
}
