#!/usr/bin/env node
// The bot benchmark RUNS times in a row (each with a fresh product): this machine's speed varies from one
// minute to the next, so one run's p99 says little (the same build measured 0.34–1.15 s on one day).
// Prints each run's figures, then the median, lowest and highest p50 and p99, the percentiles of all the runs'
// replies pooled (what compares two builds best: a run's p99 is its 30 slowest replies, often one stall), and how
// many runs held the target.
//
//   npm run bench:bot:series [-- RUNS [CUSTOMERS]]      (default 5 runs of 1,000 customers)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { percentile } from '../lib/product.mjs';

const RUNS = Number(process.argv[2] ?? process.env.BENCH_RUNS ?? 5);
const CUSTOMERS = process.argv[3] ?? process.env.BENCH_CUSTOMERS ?? '1000';
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`bad RUNS: ${process.argv[2]}`);
const run = join(dirname(fileURLToPath(import.meta.url)), 'run.mjs');
// each run's replies (BENCH_DUMP), pooled at the end
const dumps = mkdtempSync(join(tmpdir(), 'bench-bot-series-'));
const pooled = [];

/** `p50 1,234 ms` in a line → 1234 */
const figure = (line, name) => {
  const m = line?.match(new RegExp(`${name} ([\\d,]+) ms`));
  return m ? Number(m[1].replaceAll(',', '')) : NaN;
};

function once(i) {
  return new Promise((resolve, reject) => {
    const dump = join(dumps, `run-${i}.json`);
    const child = spawn(process.execPath, [run, CUSTOMERS], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, BENCH_DUMP: dump },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      try {
        pooled.push(...JSON.parse(readFileSync(dump, 'utf8')).map((r) => r.ms));
      } catch {
        // a run that failed before its figures: nothing to pool
      }
      const lines = out.split('\n');
      const all = lines.find((l) => l.startsWith('message -> reply, all steps'));
      const cpu = lines.find((l) => l.startsWith('CPU seconds ('));
      const result = {
        code,
        p50: figure(all, 'p50'),
        p99: figure(all, 'p99'),
        held: lines.some((l) => l.startsWith('target') && l.includes('HELD')),
        cpu: cpu?.replace(/^CPU seconds \([^)]*\)\s*:\s*/, '') ?? '',
      };
      process.stdout.write(`run ${i}: p50 ${result.p50} ms, p99 ${result.p99} ms${code ? ` (exit ${code})` : ''}; CPU s: ${result.cpu}\n`);
      resolve(result);
    });
  });
}

const results = [];
for (let i = 1; i <= RUNS; i++) results.push(await once(i));
const sorted = (k) =>
  results
    .map((r) => r[k])
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
const median = (xs) =>
  xs.length ? (xs.length % 2 ? xs[(xs.length - 1) / 2] : Math.round((xs[xs.length / 2 - 1] + xs[xs.length / 2]) / 2)) : NaN;
for (const k of ['p50', 'p99']) {
  const xs = sorted(k);
  process.stdout.write(`${k} over ${xs.length} runs: median ${median(xs)} ms, lowest ${xs[0]} ms, highest ${xs[xs.length - 1]} ms\n`);
}
rmSync(dumps, { recursive: true, force: true });
pooled.sort((a, b) => a - b);
const at = (p) => percentile(pooled, p);
if (pooled.length > 0)
  process.stdout.write(`all ${pooled.length} replies pooled: p50 ${at(50)} ms, p90 ${at(90)} ms, p99 ${at(99)} ms, p99.9 ${at(99.9)} ms\n`);
const failed = results.filter((r) => r.code !== 0).length;
process.stdout.write(
  `target held in ${results.filter((r) => r.held).length} of ${RUNS} runs${failed ? `; ${failed} runs failed their checks` : ''}\n`,
);
process.exit(failed ? 1 : 0);
