/**
 * Rows of a raw `query()`: TypeORM's postgres driver answers UPDATE and DELETE with `[rows, rowCount]`
 * and everything else with the rows.
 */
export function rowsOf<T>(raw: unknown): T[] {
  if (Array.isArray(raw) && raw.length === 2 && Array.isArray(raw[0]) && typeof raw[1] === 'number') return raw[0] as T[];
  return (raw ?? []) as T[];
}
