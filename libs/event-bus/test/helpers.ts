import { randomBytes } from 'node:crypto';
import type { BusLogger, StreamSpec } from '../src/index.js';

export const SERVERS = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

/** Unique names per test: stream `T_<sfx>` with subjects `t<sfx>.>`, durables `d<sfx>...`. */
export function uniq(): { sfx: string; stream: StreamSpec; subj: (rest: string) => string; durable: (tag?: string) => string } {
  const sfx = randomBytes(4).toString('hex');
  return {
    sfx,
    stream: { name: `T_${sfx}`, subjects: [`t${sfx}.>`] },
    subj: (rest) => `t${sfx}.${rest}`,
    durable: (tag = '') => `d${sfx}${tag}`,
  };
}

export interface LogEntry {
  level: 'info' | 'warn' | 'error';
  obj: Record<string, unknown>;
  msg?: string;
}

/** A logger that records entries (and prints nothing). */
export function memLogger(): BusLogger & { entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  const rec = (level: LogEntry['level']) => (obj: object, msg?: string) => {
    entries.push({ level, obj: obj as Record<string, unknown>, msg });
  };
  return { entries, info: rec('info'), warn: rec('warn'), error: rec('error') };
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function waitFor(cond: () => boolean | Promise<boolean>, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(10);
  }
}
