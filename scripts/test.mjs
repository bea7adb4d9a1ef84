#!/usr/bin/env node
// `npm test`: every test of every project, against the real PostgreSQL, Redis and NATS.
// dependencies → infrastructure → build (type-checks everything) → lint → each project's jest suite
// (one at a time: they share the servers; only the long-outage test runs beside the web's unit tests, which
// use none) → last line `N passed, N failed` summed over all suites.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { prepare, root, run, say } from './lib/run.mjs';

const P = 'test';
const started = Date.now();
if (!(await prepare(P))) {
  process.stdout.write('0 passed, 1 failed\n');
  process.exit(1);
}

const { ensureChromium } = await import('./lib/chromium.mjs');
const browserReady = ensureChromium(P);
// voice notes are transcoded by ffmpeg (tickets' tests check the result with ffprobe): installed when missing
const { ensureFfmpeg } = await import('./lib/ffmpeg.mjs');
ensureFfmpeg(P);

const nx = join(root, 'node_modules/.bin/nx');
const env = { ...process.env, NX_TUI: 'false', NX_SKIP_NX_CACHE: process.env.CI ? 'true' : process.env.NX_SKIP_NX_CACHE };
const steps = [];

say(P, 'building every project (type check)…');
steps.push({ name: 'build', code: await run(nx, ['run-many', '-t', 'build', '--outputStyle=static'], { env }) });
say(P, 'linting…');
steps.push({ name: 'lint', code: await run(nx, ['run-many', '-t', 'lint', '--outputStyle=static'], { env }) });

const reports = join(root, 'reports/jest');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });
// the builds the test targets depend on were made just above: not again (under CI the cache is off, and each
// project would be built a second time, about a minute and a half)
const testArgs = ['--skip-nx-cache', '--excludeTaskDependencies', '--outputStyle=static'];
// The suites share the servers, so they run one at a time, with one exception: the long-outage test (three
// one-minute outages of its own services' connections, the machine a third busy) runs beside the web's unit
// tests, which touch no server; its output follows theirs.
say(P, 'running the long-outage test beside the web unit tests…');
const outage = runCaptured(nx, ['run', 'e2e:test-outage', ...testArgs], { env });
const webCode = await run(nx, ['run', 'web:test', ...testArgs], { env });
const outageRun = await outage;
process.stdout.write(outageRun.output);
say(P, 'running the other suites…');
const restCode = await run(nx, ['run-many', '-t', 'test', '--exclude=web', '--parallel=1', ...testArgs], { env });
const testCode = webCode || outageRun.code || restCode;

let passed = 0;
let failed = 0;
const perProject = [];
/** what failed, named near the end of the output (CI shows its tail): file › test, and the first line of why */
const failures = [];
if (existsSync(reports)) {
  for (const file of readdirSync(reports).filter((f) => f.endsWith('.json'))) {
    const r = JSON.parse(readFileSync(join(reports, file), 'utf8'));
    const brokenSuites = r.numRuntimeErrorTestSuites ?? 0;
    passed += r.numPassedTests;
    failed += r.numFailedTests + brokenSuites;
    for (const suite of r.testResults ?? []) {
      const spec = String(suite.name ?? '').replace(`${root}/`, '');
      if (suite.status === 'failed' && !(suite.assertionResults ?? []).some((a) => a.status === 'failed')) {
        failures.push(`${spec}: ${firstLine(suite.message)}`);
      }
      for (const a of suite.assertionResults ?? []) {
        if (a.status === 'failed') failures.push(`${spec} › ${a.fullName}: ${firstLine((a.failureMessages ?? []).join('\n'))}`);
      }
    }
    perProject.push(
      `${file.replace(/\.json$/, '')} ${r.numPassedTests}/${r.numTotalTests}${brokenSuites ? ` (${brokenSuites} suites did not run)` : ''}`,
    );
  }
}
if (!browserReady) {
  say(P, 'browser tests could not run: Chromium is missing');
  failed++;
}
for (const step of steps) {
  if (step.code !== 0) {
    say(P, `${step.name} failed`);
    failed++;
  }
}
if (testCode !== 0 && failed === 0) {
  say(P, 'a test target failed without a report');
  failed++;
}
for (const f of failures) say(P, `failed: ${f}`);
say(P, `per project: ${perProject.join(', ')}`);
say(P, `took ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);

function firstLine(text) {
  const plain = String(text ?? '').replace(/\u001b\[[0-9;]*m/g, '');
  return (
    plain
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l && !l.startsWith('●')) ?? ''
  ).slice(0, 300);
}

/** Runs a command with its output kept (to print after another's): its exit code and everything it wrote. */
function runCaptured(cmd, args, opts) {
  return new Promise((resolve) => {
    const chunks = [];
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], ...opts });
    child.stdout.on('data', (d) => chunks.push(d));
    child.stderr.on('data', (d) => chunks.push(d));
    // 'close', not 'exit': the output may still be arriving when the process has exited
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output: Buffer.concat(chunks).toString() }));
    child.on('error', (err) => resolve({ code: 127, output: String(err) }));
  });
}
