/**
 * Why the last session ended, kept across the page load that follows it (until the next sign-in) so the login page can say it
 * (spec 01 §4: "Sua conta foi acessada em outro computador.").
 */
const KEY = 'sessionEnded';

export type SessionEndNotice = 'auth.sessionReplaced';

export function leaveSessionEndNotice(notice: SessionEndNotice): void {
  try {
    sessionStorage.setItem(KEY, notice);
  } catch {
    /* storage unavailable: the toast was shown already */
  }
}

export function peekSessionEndNotice(): SessionEndNotice | null {
  try {
    const value = sessionStorage.getItem(KEY);
    return value === 'auth.sessionReplaced' ? value : null;
  } catch {
    return null;
  }
}

export function clearSessionEndNotice(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    /* nothing to clear */
  }
}
