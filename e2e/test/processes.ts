import { spawn, type ChildProcess } from 'node:child_process';
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

/** A port for a process started next to listen on (scripts/lib/free-port.mjs: below the ephemeral range). */
export async function freePort(): Promise<number> {
  const shared = (await import(join(root, 'scripts/lib/free-port.mjs'))) as { freePort: () => Promise<number> };
  return shared.freePort();
}

/** Starts a built service as `npm start` does (node services/<name>/dist/main.js) and waits for /health. */
export async function startProcess(name: string, env: Record<string, string> = {}): Promise<ServiceProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  return spawnService(name, port, env);
}

type Urls<N extends string> = Record<N, string>;
type EnvOf<N extends string> = Record<string, string> | ((urls: Urls<N>) => Record<string, string>);

/**
 * Starts services side by side, as a cluster starts its pods: every port is chosen first, so each service's
 * env may name the others' URLs (`(urls) => ({ TICKETS_URL: urls.tickets })`). Each is named by the service
 * it runs, or given as `{ service, env }` (two of one service). Answers them by name. When one does not
 * become healthy, the others are stopped and its error is thrown.
 */
export async function startProcesses<N extends string>(
  wanted: Record<N, EnvOf<N> | { service: string; env: EnvOf<N> }>,
): Promise<Record<N, ServiceProcess>> {
  const names = Object.keys(wanted) as N[];
  const ports = {} as Record<N, number>;
  for (const name of names) ports[name] = await freePort();
  const urls = Object.fromEntries(names.map((n) => [n, `http://127.0.0.1:${ports[n]}`])) as Urls<N>;
  const started = await Promise.allSettled(
    names.map((name) => {
      const spec = wanted[name];
      const { service, env } =
        'service' in spec && typeof spec.service === 'string'
          ? (spec as { service: string; env: EnvOf<N> })
          : { service: name, env: spec as EnvOf<N> };
      return spawnService(service, ports[name], typeof env === 'function' ? env(urls) : env);
    }),
  );
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    await stopProcesses(
      started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : [])),
      'SIGKILL',
    );
    throw failed.reason;
  }
  return Object.fromEntries(names.map((n, i) => [n, (started[i] as PromiseFulfilledResult<ServiceProcess>).value])) as Record<
    N,
    ServiceProcess
  >;
}

/** Stops services side by side and waits until every one has exited. */
export async function stopProcesses(
  processes: ReadonlyArray<ServiceProcess | undefined>,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<void> {
  await Promise.all(processes.map((p) => p?.stop(signal)));
}

async function spawnService(name: string, port: number, env: Record<string, string>): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [join(root, 'services', name, 'dist/main.js')], {
    env: { PATH: process.env.PATH ?? '', ...testEnv({ LOG_LEVEL: 'info', ...env, PORT: String(port) }) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
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

export type PathService = 'auth' | 'tickets' | 'whatsapp-sessions' | 'realtime-gateway' | 'messaging-gateway';

/**
 * The message path's five services, side by side, wired as `npm start` wires them (the gateway in front of
 * the other four, realtime-gateway reading tickets); `extra` adds to a service's env.
 */
export function startMessagePath(
  extra: Partial<Record<PathService, Record<string, string>>> = {},
): Promise<Record<PathService, ServiceProcess>> {
  return startProcesses<PathService>({
    auth: extra.auth ?? {},
    tickets: extra.tickets ?? {},
    'whatsapp-sessions': extra['whatsapp-sessions'] ?? {},
    'realtime-gateway': (urls) => ({ TICKETS_URL: urls.tickets, ...extra['realtime-gateway'] }),
    'messaging-gateway': (urls) => ({
      AUTH_URL: urls.auth,
      TICKETS_URL: urls.tickets,
      WHATSAPP_SESSIONS_URL: urls['whatsapp-sessions'],
      REALTIME_URL: urls['realtime-gateway'],
      ...extra['messaging-gateway'],
    }),
  });
}
