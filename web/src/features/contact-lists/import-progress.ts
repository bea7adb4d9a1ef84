import type { ContactListImportProgress } from '@wa/contracts';
import { useSyncExternalStore } from 'react';

/** The last import progress of each list, as the live events bring it (`company-<id>-ContactList`, action import). */
const progressByList = new Map<number, ContactListImportProgress>();
const listeners = new Set<() => void>();

export function setImportProgress(progress: ContactListImportProgress): void {
  progressByList.set(progress.contactListId, progress);
  for (const l of listeners) l();
}

export function clearImportProgress(contactListId: number): void {
  if (progressByList.delete(contactListId)) for (const l of listeners) l();
}

function subscribe(l: () => void) {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** The list's import as last heard of, or null. */
export function useImportProgress(contactListId: number): ContactListImportProgress | null {
  return useSyncExternalStore(subscribe, () => progressByList.get(contactListId) ?? null);
}
