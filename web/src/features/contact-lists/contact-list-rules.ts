import type { ContactListImportProgress } from '@wa/contracts';
import { validateConnectionName } from '../../components/form-rules';

export type LengthProblem = 'required' | 'tooShort' | 'tooLong';

/** spec 02 §5: a contact list's name is required, 2 to 50 characters. */
export const validateContactList = (v: { name: string }) => ({ name: validateConnectionName(v.name) });

export interface ContactListItemValues {
  name: string;
  number: string;
  email: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** spec 02 §5: name required 2 to 50; number 8 to 50 (Too Short!, Too Long!); email, when given, valid (Invalid email). */
export function validateContactListItem(v: ContactListItemValues): {
  name: LengthProblem | null;
  number: LengthProblem | null;
  email: 'invalidEmail' | null;
} {
  const number = v.number.trim();
  const email = v.email.trim();
  return {
    name: validateConnectionName(v.name),
    number: !number ? 'required' : number.length < 8 ? 'tooShort' : number.length > 50 ? 'tooLong' : null,
    email: email && !EMAIL.test(email) ? 'invalidEmail' : null,
  };
}

/** The files the import takes (issue 40: .xlsx, legacy .xls and .csv). */
export const IMPORT_ACCEPT = '.xlsx,.xls,.csv';

/** An import's progress as a whole percentage 0–100 (a finished import is 100, an empty file too). */
export function importPercent(p: Pick<ContactListImportProgress, 'processed' | 'total' | 'done'> | null | undefined): number {
  if (!p) return 0;
  if (p.done) return 100;
  if (p.total <= 0) return 0;
  return Math.min(100, Math.max(0, Math.floor((p.processed / p.total) * 100)));
}

/** The WhatsApp check of an item: on WhatsApp, not on it, or not checked yet. */
export const whatsappState = (isWhatsappValid: boolean | null | undefined): 'valid' | 'invalid' | 'unchecked' =>
  isWhatsappValid === true ? 'valid' : isWhatsappValid === false ? 'invalid' : 'unchecked';
