#!/usr/bin/env node
// Request validation benchmark: what class-validator costs a 50-message sandbox batch (POST
// /whatsappsession/<id>/sandbox/inbound/batch, the inbound benchmark's call) in whatsapp-sessions, with every class
// of the service's modules defined, as shipped and with each class's rules resolved once (server-kit's
// rememberValidationRules, which the global pipe installs). Each mode runs in a process of its own, alternating.
//
//   npm run bench:validation [-- ROUNDS [BATCHES]]    (default 3 rounds of 4,000 batches, after 500 to warm up)
//
// Prints µs per batch for each run and the medians. Needs the build (libs/server-kit and whatsapp-sessions dist/).
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const ROUNDS = Number(process.argv[2] ?? 3);
const BATCHES = Number(process.argv[3] ?? 4000);
const mode = process.env.BENCH_VALIDATION_MODE;

if (!mode) {
  const runs = { shipped: [], remembered: [] };
  for (let r = 0; r < ROUNDS; r++)
    for (const m of Object.keys(runs)) {
      const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), String(ROUNDS), String(BATCHES)], {
        cwd: join(root, 'services/whatsapp-sessions'),
        env: { ...process.env, BENCH_VALIDATION_MODE: m },
        encoding: 'utf8',
      });
      runs[m].push(Number(out.trim()));
      console.log(`round ${r + 1} ${m.padEnd(10)}: ${out.trim()} µs per 50-message batch`);
    }
  const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
  console.log(
    `validation of a 50-message sandbox batch (${BATCHES} batches a run), median: shipped ${median(runs.shipped)} µs, ` +
      `rules remembered ${median(runs.remembered)} µs`,
  );
} else {
  const at = (p) => pathToFileURL(join(root, p)).href;
  await import(at('services/whatsapp-sessions/dist/app.module.js'));
  const { validate } = await import('class-validator');
  const { plainToInstance } = await import('class-transformer');
  const { rememberValidationRules } = await import(at('libs/server-kit/dist/errors/validation-metadata.js'));
  const { SandboxInboundBatchDto } = await import(at('services/whatsapp-sessions/dist/sessions/sessions.dto.js'));
  if (mode === 'remembered') rememberValidationRules();
  const body = {
    messages: Array.from({ length: 50 }, (_, i) => ({ from: `55119999${String(i).padStart(5, '0')}`, name: 'Maria', body: `hello ${i}` })),
  };
  // what the global pipe does with the body (server-kit's createValidationPipe: whitelist, transform)
  const run = async (n) => {
    for (let i = 0; i < n; i++) {
      const errors = await validate(plainToInstance(SandboxInboundBatchDto, body), { whitelist: true });
      if (errors.length) throw new Error(`the batch did not validate: ${JSON.stringify(errors)}`);
    }
  };
  await run(500);
  const t = performance.now();
  await run(BATCHES);
  console.log((((performance.now() - t) / BATCHES) * 1000).toFixed(0));
}
