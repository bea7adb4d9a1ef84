// Browser tests drive Debian's Chromium (never a downloaded browser): installed here when missing.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { say } from './run.mjs';

export const CHROMIUM = '/usr/bin/chromium';

export function ensureChromium(prefix) {
  if (existsSync(CHROMIUM)) return true;
  const fix = 'apt-get update && apt-get install -y --no-install-recommends chromium';
  if (process.getuid?.() !== 0) {
    say(prefix, `Chromium is missing for the browser tests; run as root: ${fix}`);
    return false;
  }
  say(prefix, 'installing Debian chromium for the browser tests…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  const res = spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], { stdio: 'inherit', env });
  if (res.status !== 0 || !existsSync(CHROMIUM)) {
    say(prefix, `could not install Chromium; run: ${fix}`);
    return false;
  }
  return true;
}
