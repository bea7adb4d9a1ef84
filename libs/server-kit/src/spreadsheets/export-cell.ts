/** The first characters a spreadsheet program takes as the start of a formula (OWASP: CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A text as an exported CSV or spreadsheet cell: one that a spreadsheet program would run as a formula
 * (it starts with `=`, `+`, `-`, `@`, a tab or a carriage return) gets a single quote in front, so it is
 * shown as the text it is (OWASP's advice). Anything else is written as it is: a phone number stored as
 * its digits (`5511987654321`) stays a plain number a spreadsheet can use. Every export of the product
 * writes its cells through this (contacts, campaign reports).
 */
export function exportCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}
