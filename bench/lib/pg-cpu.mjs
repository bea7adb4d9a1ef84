#!/usr/bin/env node
// CPU seconds of each PostgreSQL backend grouped by application_name (and database), sampled twice:
//   node bench/lib/pg-cpu.mjs [SECONDS=10]     run beside a benchmark to see who makes PostgreSQL work

import pg from 'pg';
import { cpuSeconds } from './proc.mjs';

const seconds = Number(process.argv[2] ?? 10);
const client = new pg.Client({
  connectionString: process.env.BENCH_PG ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres',
  application_name: 'pg-cpu',
});
await client.connect();
const snapshot = async () => {
  const { rows } = await client.query(
    'SELECT pid, datname, coalesce(nullif(application_name, $$$$), backend_type) AS application_name FROM pg_stat_activity',
  );
  const by = new Map();
  for (const r of rows) by.set(r.pid, `${r.datname ?? '-'}/${r.application_name || '(none)'}`);
  const cpu = new Map();
  for (const [pid, who] of by) cpu.set(pid, { who, s: cpuSeconds(pid) });
  return cpu;
};
const a = await snapshot();
await new Promise((r) => setTimeout(r, seconds * 1000));
const b = await snapshot();
const totals = new Map();
for (const [pid, { who, s }] of b) {
  const before = a.get(pid)?.s ?? 0;
  totals.set(who, (totals.get(who) ?? 0) + (s - before));
}
for (const [who, s] of [...totals].sort((x, y) => y[1] - x[1])) if (s > 0) console.log(`${s.toFixed(2).padStart(7)} s  ${who}`);
await client.end();
