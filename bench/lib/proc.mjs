// CPU accounting from /proc, for the benchmarks' figures.
import { readdirSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';

/** busy and total jiffies of the whole machine (/proc/stat `cpu` line) */
export function machineCpu() {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = f[3] + f[4];
  return { busy: f.reduce((a, b) => a + b, 0) - idle, total: f.reduce((a, b) => a + b, 0) };
}
export const busyPercent = (a, b) => (100 * (b.busy - a.busy)) / Math.max(1, b.total - a.total);

/** CPU seconds of every postgres process (the server is shared: other work counts too) */
export function postgresCpu() {
  let sum = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') sum += cpuSeconds(pid);
    } catch {
      // gone
    }
  }
  return sum;
}

/** user+system CPU seconds of a process so far */
export function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100; // utime, stime in clock ticks (100/s)
  } catch {
    return NaN;
  }
}

/**
 * What a process has cost so far: user and system CPU seconds, read and write system calls (/proc/<pid>/io).
 * On this kind of VM a system call, and the wake-up of the process on the other end of a socket, cost far
 * more than on bare metal: the write calls per message say more about a path's cost than its user time.
 */
export function processCost(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const io = Object.fromEntries(
      readFileSync(`/proc/${pid}/io`, 'utf8')
        .trim()
        .split('\n')
        .map((l) => l.split(':').map((s) => s.trim())),
    );
    return { user: Number(f[11]) / 100, sys: Number(f[12]) / 100, syscr: Number(io.syscr), syscw: Number(io.syscw) };
  } catch {
    return { user: NaN, sys: NaN, syscr: NaN, syscw: NaN };
  }
}

/** processCost summed over every process of this name (`comm`), e.g. postgres's backends. */
export function processCostOf(comm) {
  const sum = { user: 0, sys: 0, syscr: 0, syscw: 0 };
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== comm) continue;
    } catch {
      continue;
    }
    const c = processCost(pid);
    if (Number.isNaN(c.user)) continue;
    for (const k of Object.keys(sum)) sum[k] += c[k];
  }
  return sum;
}

/** b − a, field by field. */
export const costSince = (a, b) => Object.fromEntries(Object.keys(a).map((k) => [k, b[k] - a[k]]));

/** processCost of each of `procs` (a bench's children: `{ name, child }`), by name, and postgres's summed. */
export function processCosts(procs) {
  return {
    ...Object.fromEntries(procs.map((p) => [p.name, processCost(p.child.pid)])),
    postgres: processCostOf('postgres'),
  };
}

/** What each process cost between two processCosts readings, those of at least 0.2 CPU s, the costliest first. */
export function costRanking(before, after) {
  return Object.entries(after)
    .map(([k, v]) => [k, costSince(before[k], v)])
    .filter(([, c]) => c.user + c.sys >= 0.2)
    .sort((a, b) => b[1].user + b[1].sys - a[1].user - a[1].sys);
}

/**
 * The machine's pace now: CPU ms this process spends on a fixed piece of work (hashing 32 MB, a loop). A slower
 * pace than another run's says the machine was slower (a shared host's neighbours); the same pace does not say
 * it was as fast under load (one busy core, alone, is all this measures).
 */
export function paceProbe() {
  const data = Buffer.alloc(1 << 20, 7);
  const c0 = process.cpuUsage();
  for (let i = 0; i < 32; i++) createHash('sha256').update(data).digest();
  let x = 0;
  for (let i = 0; i < 20_000_000; i++) x = (x * 31 + i) | 0;
  const c = process.cpuUsage(c0);
  return { ms: (c.user + c.system) / 1000, x };
}
