import { useEffect, useState } from 'react';

/** spec 01 §9: search requests are debounced 500 ms. */
export const SEARCH_DEBOUNCE_MS = 500;

/** `value`, once it has not changed for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setV(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return v;
}
