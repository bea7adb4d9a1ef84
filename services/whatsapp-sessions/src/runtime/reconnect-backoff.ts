export interface BackoffOptions {
  /** the first attempt's delay at most */
  baseMs: number;
  /** no delay is longer than this */
  maxMs: number;
}

/**
 * How long to wait before reconnect attempt `attempt` (1, 2, …) of a dropped session: the ceiling
 * doubles from `baseMs` on each attempt up to `maxMs`, and the delay is drawn between half the ceiling
 * and the ceiling, so that sessions dropped together (a network outage) do not all come back at the
 * same instant. `random` is in [0, 1) (Math.random; tests pass their own).
 */
export function reconnectDelay(attempt: number, { baseMs, maxMs }: BackoffOptions, random: () => number = Math.random): number {
  const step = Math.max(0, Math.min(Math.floor(attempt) - 1, 52)); // past 2^52 the ceiling is capped anyway
  const ceiling = Math.min(maxMs, baseMs * 2 ** step);
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.round(ceiling / 2 + (ceiling / 2) * r);
}
