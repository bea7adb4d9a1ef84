import { useEffect, useLayoutEffect, useRef } from 'react';

/** What the ticket manager's keyboard shortcuts do (their sheet opens with "?"). */
export type ShortcutAction = 'next' | 'previous' | 'accept' | 'resolve' | 'composer' | 'help';

/** Each action's keys, in the sheet's order: each entry one combination, its keys pressed together. */
export const SHORTCUTS: ReadonlyArray<{ action: ShortcutAction; keys: string[][] }> = [
  { action: 'next', keys: [['J'], ['Alt', '↓']] },
  { action: 'previous', keys: [['K'], ['Alt', '↑']] },
  { action: 'accept', keys: [['A']] },
  { action: 'resolve', keys: [['R']] },
  { action: 'composer', keys: [['C']] },
  { action: 'help', keys: [['?']] },
];

const TEXT_FIELDS = 'input, textarea, select, [contenteditable]:not([contenteditable="false"])';
/** A dialog or menu above the page: its keys are its own (the ticket behind it is not resolved by an "r"). */
const ABOVE_THE_PAGE = '[role="dialog"], [role="alertdialog"], [role="menu"], [role="listbox"]';

/** Whether a key pressed there is text (or the business of a dialog or menu), not a shortcut. */
export function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if ((target as HTMLElement).isContentEditable) return true;
  return target.closest(TEXT_FIELDS) !== null || target.closest(ABOVE_THE_PAGE) !== null;
}

type KeyPress = Pick<KeyboardEvent, 'key' | 'altKey' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'target' | 'defaultPrevented' | 'isComposing'>;

/** The shortcut a key press means, or null: never while the user types, nor with Ctrl or ⌘ (copy stays copy). */
export function shortcutOf(e: KeyPress): ShortcutAction | null {
  if (e.defaultPrevented || e.isComposing || e.ctrlKey || e.metaKey || typingIn(e.target)) return null;
  if (e.altKey) {
    if (e.key === 'ArrowDown') return 'next';
    if (e.key === 'ArrowUp') return 'previous';
    return null;
  }
  if (e.key === '?') return 'help';
  if (e.shiftKey) return null;
  switch (e.key.toLowerCase()) {
    case 'j':
      return 'next';
    case 'k':
      return 'previous';
    case 'a':
      return 'accept';
    case 'r':
      return 'resolve';
    case 'c':
      return 'composer';
    default:
      return null;
  }
}

/**
 * A handler per action while the component is mounted: it returns false when the action is not its to do
 * now (then the key keeps its default). A held key repeats only the moves through the list.
 */
export type ShortcutHandlers = Partial<Record<ShortcutAction, () => boolean | void>>;

export function useShortcuts(handlers: ShortcutHandlers): void {
  const current = useRef(handlers);
  useLayoutEffect(() => {
    current.current = handlers;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const action = shortcutOf(e);
      const handle = action ? current.current[action] : undefined;
      if (!handle) return;
      if (e.repeat && action !== 'next' && action !== 'previous') return;
      if (handle() !== false) e.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}
