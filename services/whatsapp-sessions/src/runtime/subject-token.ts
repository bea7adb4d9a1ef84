/** A token usable inside a NATS subject (no dots, wildcards or blanks). */
export function subjectToken(value: string): string {
  const t = value.replace(/[.*>\s]/g, '_');
  return t.length > 0 ? t : '_';
}
