import 'reflect-metadata';
import { createServer } from 'node:http';
import { hostname } from 'node:os';
import { loadConfigOrExit, PeriodicTask } from '@wa/server-kit';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { ReplicaRegistry } from './runtime/replicas.js';
import { SessionsScaler } from './scaler/scaler.js';
import { ScalerEnv } from './scaler/scaler.env.js';
import { StatefulSetScale } from './scaler/statefulset-scale.js';

// The sessions scaler: sizes the whatsapp-sessions StatefulSet to the sessions that should run (scaler/scaler.ts).
// A process of its own, without Nest: a loop, Redis and the Kubernetes API, nothing else.
const SERVICE = 'whatsapp-sessions-scaler';
const env = loadConfigOrExit(ScalerEnv, SERVICE);
const logger = pino({
  level: env.LOG_LEVEL,
  base: { service: SERVICE },
  messageKey: 'msg',
  timestamp: () => `,"time":"${new Date().toISOString()}"`,
});

const redis = new Redis(env.REDIS_URL, { maxRetriesPerRequest: 2 });
redis.on('error', (err) => logger.warn({ err: String(err) }, 'redis unreachable'));
const target = StatefulSetScale.connect(env.SCALER_KUBE_API, env.SCALER_NAMESPACE, env.SCALER_STATEFULSET);
const scaler = new SessionsScaler(
  redis,
  ReplicaRegistry.create(redis),
  target,
  {
    statefulSet: env.SCALER_STATEFULSET,
    sessionsPerReplica: env.SCALER_SESSIONS_PER_REPLICA,
    minReplicas: env.SCALER_MIN_REPLICAS,
    maxReplicas: env.SCALER_MAX_REPLICAS,
    cooldownMs: env.SCALER_COOLDOWN_MS,
    replicaTtlMs: env.REPLICA_TTL_MS,
    owner: `${hostname()}:${process.pid}`,
    // a few rounds: a scaler that stopped without letting go (a crash) is replaced soon, never between two rounds
    leaseTtlMs: env.SCALER_INTERVAL_MS * 3,
  },
  logger,
);

// a wrong name or a Role that does not allow reading shows at start, in words; the rounds go on regardless
await target.describe().then(
  (set) => logger.info({ namespace: env.SCALER_NAMESPACE, statefulSet: env.SCALER_STATEFULSET, ...set }, 'scaler: started'),
  (err: unknown) =>
    logger.error(
      { err: String(err), namespace: env.SCALER_NAMESPACE, statefulSet: env.SCALER_STATEFULSET },
      'scaler: cannot read the StatefulSet',
    ),
);

const rounds = new PeriodicTask({
  name: 'scaler round',
  everyMs: env.SCALER_INTERVAL_MS,
  run: () => scaler.tick(),
  logger,
  runAtStart: true,
});
rounds.start();
// keeps the process alive (the rounds' timer does not) and the kubelet's liveness probe asks nothing else: an outage
// of Redis or of the API server never restarts the scaler, only a process that stopped answering
const health = createServer((req, res) => {
  const ok = req.url === '/health/live' || req.url === '/health';
  res.writeHead(ok ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(ok ? { status: 'ok' } : { statusCode: 404 }));
});
health.listen(env.PORT, env.HOST);

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'scaler: stopping');
  setTimeout(() => process.exit(0), env.SHUTDOWN_TIMEOUT_S * 1000).unref();
  await rounds.stop();
  await scaler.stop().catch(() => undefined);
  health.close();
  await redis.quit().catch(() => undefined);
  process.exit(0);
};
process.once('SIGTERM', () => void stop('SIGTERM'));
process.once('SIGINT', () => void stop('SIGINT'));
