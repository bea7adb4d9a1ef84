// CPU accounting from /proc, for the benchmarks' figures.
import { readdirSync, readFileSync } from 'node:fs';

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
