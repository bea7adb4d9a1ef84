import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from '@wa/testing';
import { freePort } from './processes.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
/** The NATS configuration compose and k8s run (one user per service). */
export const SHIPPED_NATS_CONF = join(root, 'k8s/base/nats.conf');

/** The users of the shipped configuration and the variable holding each one's password. */
export function shippedNatsUsers(): Record<string, string> {
  const users: Record<string, string> = {};
  for (const m of readFileSync(SHIPPED_NATS_CONF, 'utf8').matchAll(/user:\s*([\w-]+)\s*\n\s*password:\s*\$(\w+)/g)) users[m[1]] = m[2];
  return users;
}

export interface PrivateNats {
  url: string;
  /** each user's password (random, in the form nats-server reads back unchanged) */
  passwords: Record<string, string>;
  log(): string;
  stop(): Promise<void>;
}

/** A nats-server of its own (free port, temporary store) running the shipped configuration. */
export async function startShippedNats(): Promise<PrivateNats> {
  const users = shippedNatsUsers();
  const passwords = Object.fromEntries(Object.keys(users).map((u) => [u, `n${randomBytes(32).toString('hex')}`]));
  const env: Record<string, string> = { PATH: process.env.PATH ?? '' };
  for (const [user, variable] of Object.entries(users)) env[variable] = passwords[user];
  const port = await freePort();
  const store = mkdtempSync(join(tmpdir(), 'nats-shipped-'));
  const binary = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].find(existsSync) ?? 'nats-server';
  const child: ChildProcess = spawn(
    binary,
    ['-c', SHIPPED_NATS_CONF, '-p', String(port), '-sd', store, '--http_port', String(await freePort()), '-a', '127.0.0.1'],
    {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let log = '';
  child.stdout!.on('data', (d) => (log += d));
  child.stderr!.on('data', (d) => (log += d));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await waitFor(async () => /Server is ready/.test(log), { timeoutMs: 15_000 }).catch(() => {
    child.kill('SIGKILL');
    throw new Error(`nats-server did not start with ${SHIPPED_NATS_CONF}:\n${log}`);
  });
  return {
    url: `nats://127.0.0.1:${port}`,
    passwords,
    log: () => log,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      rmSync(store, { recursive: true, force: true });
    },
  };
}
