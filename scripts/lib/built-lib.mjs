// A library's built output, current with its sources, for a test that runs it in a plain Node process (a child that
// is killed mid-work, a dynamic import that only a real process makes take time): jest runs the sources, the child
// runs `dist`, so a test of today's code needs `dist` rebuilt when a source is newer.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The newest modification time under `dir`, its subfolders included. */
function newestUnder(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const t = e.isDirectory() ? newestUnder(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs;
    if (t > newest) newest = t;
  }
  return newest;
}

/** Builds the library at `libDir` (its tsconfig.json) when a file under its `src` is newer than its `dist/index.js`. */
export function ensureLibBuilt(libDir) {
  let built = 0;
  try {
    built = statSync(join(libDir, 'dist', 'index.js')).mtimeMs;
  } catch {
    // not built
  }
  if (newestUnder(join(libDir, 'src')) <= built) return;
  execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(libDir, 'tsconfig.json')], {
    cwd: root,
    stdio: 'inherit',
  });
}
