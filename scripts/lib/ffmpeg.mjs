// Voice notes are transcoded to OGG/Opus by the system's ffmpeg (tickets spawns it; never a downloaded binary):
// Debian's package, installed here when missing, as Chromium is for the browser tests (chromium.mjs).
import { spawnSync } from 'node:child_process';
import { say } from './run.mjs';

/** Whether `ffmpeg` (and its `ffprobe`) answer on the PATH. */
export function hasFfmpeg() {
  return ['ffmpeg', 'ffprobe'].every((bin) => spawnSync(bin, ['-version'], { stdio: 'ignore' }).status === 0);
}

/**
 * ffmpeg present, installed with apt-get when missing and this runs as root; false (with the command to run) when it
 * cannot be: the product still starts, and sending a voice note answers an error until it is installed.
 */
export function ensureFfmpeg(prefix) {
  if (hasFfmpeg()) return true;
  const fix = 'apt-get update && apt-get install -y --no-install-recommends ffmpeg';
  if (process.getuid?.() !== 0) {
    say(prefix, `ffmpeg is missing (voice notes are transcoded with it); run as root: ${fix}`);
    return false;
  }
  say(prefix, 'installing Debian ffmpeg (voice notes are transcoded with it)…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  const res = spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'ffmpeg'], { stdio: 'inherit', env });
  if (res.status !== 0 || !hasFfmpeg()) {
    say(prefix, `could not install ffmpeg; run: ${fix}`);
    return false;
  }
  return true;
}
