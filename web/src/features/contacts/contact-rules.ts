import type { OtherOpenTicketBody } from '@wa/contracts';
import { validateConnectionName } from '../../components/form-rules';

/** spec 01 §5: a contact search (new ticket, schedule) starts at 3 typed characters. */
export const CONTACT_SEARCH_MIN = 3;

type Problem = 'required' | 'tooShort' | 'tooLong' | 'invalidEmail' | null;

/** spec 01 §5: a contact's name is 2 to 50 characters (the same rule as every name). */
export const validateContactName = validateConnectionName;

/** spec 01 §5: the number is 8 to 50 characters. */
export function validateContactNumber(number: string): Problem {
  const n = number.trim();
  if (!n) return 'required';
  if (n.length < 8) return 'tooShort';
  if (n.length > 50) return 'tooLong';
  return null;
}

/** spec 01 §5: an email, when given, must be valid. */
export function validateContactEmail(email: string): Problem {
  const e = email.trim();
  if (!e) return null;
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(e) ? null : 'invalidEmail';
}

/** spec 01 §4: the chat button is off when the number is missing or WhatsApp said it is not on it. */
export function canChat(contact: { number: string; isWhatsappValid: boolean | null; isGroup?: boolean }): boolean {
  return !!contact.number && contact.isWhatsappValid !== false;
}

/** The holder of a conversation a new ticket collided with (spec 01 §4), from the error's body. */
export function conflictHolder(err: unknown): Pick<OtherOpenTicketBody, 'userId' | 'userName' | 'ticketId'> | null {
  const body = err && typeof err === 'object' && 'data' in err ? (err as { data: unknown }).data : undefined;
  if (!body || typeof body !== 'object' || (body as { error?: unknown }).error !== 'ERR_OTHER_OPEN_TICKET') return null;
  const b = body as OtherOpenTicketBody;
  return { userId: b.userId ?? null, userName: b.userName ?? null, ticketId: b.ticketId };
}
