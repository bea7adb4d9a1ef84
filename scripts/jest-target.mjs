#!/usr/bin/env node
// Keeps every project's `test` target alike: jest in ESM mode, one worker (the suites share real
// servers), and a JSON report in reports/jest/<project>.json that `npm test` sums up. Projects whose
// tests share nothing (the web's, in jsdom) run on both cores.
//   node scripts/jest-target.mjs            rewrite the targets
//   node scripts/jest-target.mjs --check    exit 1 when one differs
import { readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

/** projects whose tests use no real server (no database, bus or queue): their files may run side by side */
const SHARE_NOTHING = new Set(['web']);

const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*project.json'], { encoding: 'utf8' })
  .split('\n')
  .filter((f) => f.endsWith('project.json') && !f.startsWith('node_modules'));
let differs = 0;
for (const file of files) {
  const project = JSON.parse(readFileSync(file, 'utf8'));
  const test = project.targets?.test;
  if (!test || !existsJest(file)) continue;
  const dir = file.replace(/\/?project\.json$/, '');
  const report = `reports/jest/${project.name}.json`;
  const workers = SHARE_NOTHING.has(project.name) ? '--maxWorkers=2' : '--runInBand';
  const command = `node --experimental-vm-modules node_modules/jest/bin/jest.js -c ${dir}/jest.config.js ${workers} --json --outputFile=${report}`;
  if (test.options?.command === command && JSON.stringify(test.outputs) === JSON.stringify([`{workspaceRoot}/${report}`])) continue;
  differs++;
  test.executor = 'nx:run-commands';
  test.options = { ...(test.options ?? {}), command };
  test.outputs = [`{workspaceRoot}/${report}`];
  if (!process.argv.includes('--check')) writeFileSync(file, `${JSON.stringify(project, null, 2)}\n`);
}
if (process.argv.includes('--check') && differs) {
  console.error(`${differs} test target(s) differ; run node scripts/jest-target.mjs`);
  process.exit(1);
}

function existsJest(projectFile) {
  try {
    readFileSync(projectFile.replace(/project\.json$/, 'jest.config.js'));
    return true;
  } catch {
    return false;
  }
}
