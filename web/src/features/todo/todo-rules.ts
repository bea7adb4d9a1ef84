import { format } from 'date-fns';

/** spec 01 §2 "Other dialogs": a local task; it lives only in this browser. */
export interface TodoTask {
  id: string;
  text: string;
  /** ISO times */
  createdAt: string;
  updatedAt: string;
}

/** One list per user of a company, in local storage. */
export function todoStorageKey(companyId: number, userId: number): string {
  return `todolist:${companyId}:${userId}`;
}

function isTask(value: unknown): value is TodoTask {
  if (!value || typeof value !== 'object') return false;
  const t = value as Record<string, unknown>;
  return typeof t.id === 'string' && typeof t.text === 'string' && typeof t.createdAt === 'string' && typeof t.updatedAt === 'string';
}

/** The stored list; anything unreadable is an empty list (and broken entries are dropped). */
export function parseTasks(raw: string | null | undefined): TodoTask[] {
  if (!raw) return [];
  try {
    const value: unknown = JSON.parse(raw);
    return Array.isArray(value) ? value.filter(isTask) : [];
  } catch {
    return [];
  }
}

export function serializeTasks(tasks: readonly TodoTask[]): string {
  return JSON.stringify(tasks);
}

/** An id unique enough for one browser's list. */
export function newTaskId(now: Date = new Date(), random: () => number = Math.random): string {
  return `${now.getTime().toString(36)}-${Math.floor(random() * 36 ** 6)
    .toString(36)
    .padStart(6, '0')}`;
}

/** Adds a task at the end; blank (whitespace) text is ignored. */
export function addTask(tasks: readonly TodoTask[], text: string, now: Date, id: string): readonly TodoTask[] {
  const clean = text.trim();
  if (!clean) return tasks;
  const at = now.toISOString();
  return [...tasks, { id, text: clean, createdAt: at, updatedAt: at }];
}

/** Changes a task's text (and its updatedAt); blank text, an unknown task or the same text change nothing. */
export function editTask(tasks: readonly TodoTask[], id: string, text: string, now: Date): readonly TodoTask[] {
  const clean = text.trim();
  if (!clean) return tasks;
  const current = tasks.find((t) => t.id === id);
  if (!current || current.text === clean) return tasks;
  return tasks.map((t) => (t.id === id ? { ...t, text: clean, updatedAt: now.toISOString() } : t));
}

export function deleteTask(tasks: readonly TodoTask[], id: string): readonly TodoTask[] {
  return tasks.some((t) => t.id === id) ? tasks.filter((t) => t.id !== id) : tasks;
}

/** dd/MM/yyyy HH:mm on this browser's clock; empty for a value that is not a time. */
export function formatTaskDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : format(d, 'dd/MM/yyyy HH:mm');
}

/** Whether a task was changed after it was made (the list then shows both times). */
export const wasEdited = (task: Pick<TodoTask, 'createdAt' | 'updatedAt'>): boolean => task.updatedAt !== task.createdAt;
