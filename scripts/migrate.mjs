#!/usr/bin/env node
// Runs every pending migration of every service that has tables (each in its own schema).
// Uses the built services (dist/migrate.js); in an image holding one service, only that one runs.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { root, run, say, SERVICES } from './lib/run.mjs';

export async function migrateAll(env = process.env) {
  let failed = 0;
  for (const svc of SERVICES.filter((s) => s.migrates)) {
    const script = join(root, 'services', svc.name, 'dist/migrate.js');
    if (!existsSync(script)) continue;
    const code = await run(process.execPath, [script], { env });
    if (code !== 0) {
      say('migrate', `${svc.name} failed (exit ${code})`);
      failed++;
    }
  }
  return failed;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exit((await migrateAll()) ? 1 : 0);
}
