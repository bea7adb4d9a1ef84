import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testEnv, waitFor } from '@wa/testing';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

export interface ServiceProcess {
  name: string;
  url: string;
  child: ChildProcess;
  output(): string;
  /** resolves with the exit code and signal */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Starts a built service as `npm start` does (node services/<name>/dist/main.js) and waits for /health. */
export async function startProcess(name: string, env: Record<string, string> = {}): Promise<ServiceProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child = spawn(process.execPath, [join(root, 'services', name, 'dist/main.js')], {
    env: { PATH: process.env.PATH ?? '', ...testEnv({ LOG_LEVEL: 'info', ...env, PORT: String(port) }) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const url = `http://127.0.0.1:${port}`;
  let gone = false;
  void exited.then(() => (gone = true));
  await waitFor(
    async () => {
      if (gone) throw new Error(`${name} exited during start:\n${out}`);
      const res = await fetch(`${url}/health`).catch(() => undefined);
      return res?.status === 200;
    },
    { timeoutMs: 30_000, intervalMs: 100 },
  ).catch((err) => {
    child.kill('SIGKILL');
    throw new Error(`${name} did not become healthy: ${String(err)}\n${out}`);
  });
  return {
    name,
    url,
    child,
    output: () => out,
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (!gone) child.kill(signal);
      return exited;
    },
  };
}
