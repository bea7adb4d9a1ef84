/**
 * Focus goes back where it was when a dialog closes (issue 45 §7). Chakra's dialog gives it back when its `open`
 * turns false, but the console's dialogs are mounted only while open (`{editing && <XDialog open … />}`), and an
 * unmounted dialog leaves the focus on the page's body: a keyboard or screen reader user has to find their place
 * again. One watcher for the whole console: it remembers, for each dialog the focus enters, the element focused
 * before it (a menu's item counts as the menu's button, which the menu gives the focus back to), and when that
 * dialog leaves the page with the focus on nothing, the focus returns to that element.
 */
const DIALOG = '[role=dialog], [role=alertdialog]';
const MENU = '[role=menu], [role=listbox]';

export function installDialogFocusReturn(doc: Document = document): () => void {
  const open: Array<{ dialog: Element; opener: HTMLElement }> = [];
  let last: HTMLElement | null = null;

  const onFocusIn = (e: FocusEvent) => {
    const el = e.target;
    if (!(el instanceof HTMLElement)) return;
    const dialog = el.closest(DIALOG);
    if (dialog && last && !dialog.contains(last) && !open.some((o) => o.dialog === dialog)) open.push({ dialog, opener: last });
    // a menu's items are gone once it closes: what opened the menu stays the one to come back to
    if (!el.closest(MENU)) last = el;
  };

  const nothingFocused = () => !doc.activeElement || doc.activeElement === doc.body || doc.activeElement === doc.documentElement;

  const observer = new MutationObserver(() => {
    if (open.length === 0) return;
    for (let i = open.length - 1; i >= 0; i--) {
      const { dialog, opener } = open[i];
      if (dialog.isConnected) continue;
      open.splice(i, 1);
      // after the dialog's own clean-up had its turn (it may have put the focus somewhere already)
      setTimeout(() => {
        if (nothingFocused() && opener.isConnected) opener.focus({ preventScroll: true });
      }, 0);
    }
  });

  doc.addEventListener('focusin', onFocusIn, true);
  observer.observe(doc.body, { childList: true, subtree: true });
  return () => {
    doc.removeEventListener('focusin', onFocusIn, true);
    observer.disconnect();
  };
}
