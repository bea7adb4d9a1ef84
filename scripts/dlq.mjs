#!/usr/bin/env node
// `npm run dlq -- list [--durable D] [--limit N] [--json]`
// `npm run dlq -- show ID`
// `npm run dlq -- replay ID [--keep]` | `npm run dlq -- replay --all [--durable D] [--keep]`
// Dead letters are what a consumer gave up on after its attempts (a bad payload, a broken rule), never
// what an outage delayed. A replay publishes the message to its original subject again; consumers are
// idempotent, so replaying twice stores nothing more. NATS_URL as every service reads it; NATS_USER and
// NATS_PASSWORD: the `operator` user of k8s/base/nats.conf where NATS has users.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './lib/run.mjs';

const USAGE = 'usage: npm run dlq -- list [--durable D] [--limit N] [--json] | show ID | replay (ID | --all [--durable D]) [--keep]';

const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  args.splice(i, 1);
  return true;
};
const option = (name) => {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
};

const json = flag('--json');
const keep = flag('--keep');
const all = flag('--all');
const durable = option('--durable');
const limit = Number(option('--limit') ?? 100);
const [command, id] = args;

const lib = join(root, 'libs/event-bus/dist/index.js');
if (!existsSync(lib)) {
  process.stderr.write('the event bus is not built yet: run `npm run build` (or `npm start`) first\n');
  process.exit(2);
}
const { EventBus, DeadLetters } = await import(lib);

function fail(text, code = 2) {
  process.stderr.write(`${text}\n`);
  process.exit(code);
}

if (!['list', 'show', 'replay'].includes(command)) fail(USAGE);
if (command === 'show' && !/^\d+$/.test(id ?? '')) fail(USAGE);
if (command === 'replay' && !all && !/^\d+$/.test(id ?? '')) fail(USAGE);

const quiet = {
  info() {},
  warn() {},
  error(o, m) {
    process.stderr.write(`${m ?? ''} ${JSON.stringify(o)}\n`);
  },
};
const bus = await EventBus.connect({
  servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
  name: 'dlq-cli',
  logger: quiet,
  // the `operator` user of k8s/base/nats.conf (a replay publishes to any service's subjects)
  ...(process.env.NATS_USER ? { user: process.env.NATS_USER, pass: process.env.NATS_PASSWORD ?? '' } : {}),
}).catch((err) => fail(`cannot reach NATS: ${err.message}`, 1));
let code = 0;
try {
  const dlq = await DeadLetters.open(bus.connection);
  if (command === 'list') {
    const rows = await dlq.list({ durable, limit });
    if (json) {
      process.stdout.write(`${JSON.stringify(rows)}\n`);
    } else if (rows.length === 0) {
      process.stdout.write('no dead letters\n');
    } else {
      process.stdout.write('ID\tAT\tCONSUMER\tSUBJECT\tATTEMPTS\tERROR\n');
      for (const d of rows) process.stdout.write(`${d.id}\t${d.at}\t${d.durable}\t${d.subject}\t${d.attempts}\t${d.error}\n`);
      process.stdout.write(`${rows.length} dead letter(s) shown, ${await dlq.count()} in all\n`);
    }
  } else if (command === 'show') {
    const d = await dlq.show(Number(id));
    if (!d) {
      process.stderr.write(`no dead letter ${id}\n`);
      code = 1;
    } else {
      process.stdout.write(`${JSON.stringify(d, null, 2)}\n`);
    }
  } else if (all) {
    const results = await dlq.replayAll({ durable, keep });
    for (const r of results)
      process.stdout.write(`replayed ${r.id} to ${r.subject}${r.duplicate ? ' (already replayed: nothing published)' : ''}\n`);
    process.stdout.write(`${results.length} replayed\n`);
  } else {
    const r = await dlq.replay(Number(id), { keep });
    if (!r) {
      process.stderr.write(`no dead letter ${id}\n`);
      code = 1;
    } else {
      process.stdout.write(`replayed ${r.id} to ${r.subject}${r.duplicate ? ' (already replayed: nothing published)' : ''}\n`);
    }
  }
} catch (err) {
  process.stderr.write(`dlq: ${err.message}\n`);
  code = 1;
} finally {
  await bus.close();
}
process.exit(code);
