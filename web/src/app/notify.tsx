import { useSyncExternalStore } from 'react';
import { errorText } from './errors';

type ToasterModule = typeof import('./toaster');
type ToastType = 'error' | 'success' | 'info' | 'warning';

/** spec 01 §8: server errors are toasts of 2 seconds. */
export const ERROR_TOAST_MS = 2000;

let loading: Promise<ToasterModule> | null = null;
let loaded: ToasterModule | null = null;
const listeners = new Set<() => void>();

/** The toaster's code arrives with the first toast; toasts created before it shows are kept and shown then. */
export function loadToaster(): Promise<ToasterModule> {
  loading ??= import('./toaster').then((m) => {
    loaded = m;
    for (const l of listeners) l();
    return m;
  });
  return loading;
}

function show(type: ToastType, title: string, duration: number): void {
  void loadToaster().then((m) => m.toaster.create({ type, title, duration }));
}

export const notify = {
  /** a failed call: its translated code, its text, or "An error occurred!" */
  error(err: unknown) {
    show('error', errorText(err), ERROR_TOAST_MS);
  },
  errorText(text: string) {
    show('error', text, ERROR_TOAST_MS);
  },
  success(text: string) {
    show('success', text, 3000);
  },
  info(text: string, duration = 5000) {
    show('info', text, duration);
  },
  warning(text: string, duration = 5000) {
    show('warning', text, duration);
  },
};

function subscribe(l: () => void) {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** Where the toasts render, once their code is there. */
export function ToasterHost() {
  const mod = useSyncExternalStore(subscribe, () => loaded);
  return mod ? <mod.Toaster /> : null;
}
