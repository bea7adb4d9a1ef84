/** The browser's Notification API, when it has one (not in every browser, nor in every context). */
function api(): typeof Notification | null {
  return typeof window !== 'undefined' && 'Notification' in window ? window.Notification : null;
}

let asked = false;

/**
 * Asks for the permission to show desktop notifications, once per page and only while the user has not
 * answered yet; called from a user gesture (the first click or key, opening the notifications).
 */
export function askNotificationPermissionOnce(): void {
  if (asked) return;
  asked = true;
  const N = api();
  if (!N || N.permission !== 'default') return;
  try {
    const answer = N.requestPermission();
    if (answer && typeof answer.then === 'function') void answer.catch(() => undefined);
  } catch {
    // an old browser's callback form, or a refusal to ask: no notifications then
  }
}

/** For tests: as if the page had just loaded. */
export function resetPermissionAsked(): void {
  asked = false;
}

/**
 * A desktop notification that brings the window forward and runs `onClick` when clicked; nothing when the
 * permission is not granted. Returns whether one was shown.
 */
export function showDesktopNotification(n: { title: string; body: string; tag: string; onClick(): void }): boolean {
  const N = api();
  if (!N || N.permission !== 'granted') return false;
  try {
    const shown = new N(n.title, { body: n.body, tag: n.tag, lang: document.documentElement.lang || undefined });
    shown.onclick = (e) => {
      e.preventDefault();
      window.focus();
      n.onClick();
      shown.close();
    };
    return true;
  } catch {
    // mobile Chrome has no page notifications (only a service worker's)
    return false;
  }
}
