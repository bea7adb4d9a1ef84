/** Form helpers every dialog shares: the server's field errors, the common name rule, an account password's least length. */

/**
 * spec 01 §5 / §9: a password an admin gives a user, or a company signing up gives its admin, is 5 to
 * `PASSWORD_MAX_LENGTH` (50) characters, as auth's sign-up and users DTOs take it. A password chosen at a reset or
 * at a first sign-in follows `PASSWORD_RULE` (@wa/contracts) instead.
 */
export const ACCOUNT_PASSWORD_MIN = 5;

/** The fields the server refused (`ERR_VALIDATION` with `details`), with its first message for each. */
export function serverFieldErrors(err: unknown): Record<string, string> {
  const body = err && typeof err === 'object' && 'data' in err ? (err as { data: unknown }).data : undefined;
  if (!body || typeof body !== 'object' || (body as { error?: unknown }).error !== 'ERR_VALIDATION') return {};
  const details = (body as { details?: unknown }).details;
  const out: Record<string, string> = {};
  if (!Array.isArray(details)) return out;
  for (const d of details as Array<{ field?: unknown; messages?: unknown }>) {
    const message = Array.isArray(d?.messages) ? d.messages.find((m): m is string => typeof m === 'string') : undefined;
    if (typeof d?.field === 'string' && message && !out[d.field]) out[d.field] = message;
  }
  return out;
}

/** spec 01 §5 (and the other names the spec bounds alike): a name is required, 2 to 50 characters. */
export function validateConnectionName(name: string): 'required' | 'tooShort' | 'tooLong' | null {
  const n = name.trim();
  if (!n) return 'required';
  if (n.length < 2) return 'tooShort';
  if (n.length > 50) return 'tooLong';
  return null;
}
