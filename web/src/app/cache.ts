import { current, isDraft, type Draft } from '@reduxjs/toolkit';

/** A cache entry as plain data, for the pure update functions (inside `updateQueryData` it is an immer draft). */
export function plain<T>(value: T): T {
  return isDraft(value) ? (current(value as Draft<T>) as T) : value;
}
