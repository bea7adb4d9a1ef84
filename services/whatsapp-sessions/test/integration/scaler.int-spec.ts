import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { TEST_REDIS_URL } from '@wa/testing';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { ReplicaRegistry } from '../../src/runtime/replicas.js';
import { SCALER_LEASE_KEY, SessionsScaler, type ScalerOptions } from '../../src/scaler/scaler.js';
import { StatefulSetScale } from '../../src/scaler/statefulset-scale.js';

const NAMESPACE = 'conversa';
const SET = 'whatsapp-sessions';
const SCALE_PATH = `/apis/apps/v1/namespaces/${NAMESPACE}/statefulsets/${SET}/scale`;
const MERGE_PATCH = 'application/merge-patch+json';

interface Recorded {
  method: string;
  path: string;
  contentType: string | undefined;
  body: string;
}

/**
 * A stand-in for the Kubernetes API server: the apps/v1 StatefulSet and its scale subresource, as the API server
 * answers them (a patch of another content type is refused with 415, as the real one refuses an unknown one).
 */
class FakeKubeApi {
  replicas = 2;
  readonly requests: Recorded[] = [];
  private server!: Server;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      void this.read(req).then((body) => {
        const path = (req.url ?? '').split('?')[0];
        this.requests.push({ method: req.method ?? '', path, contentType: req.headers['content-type'], body });
        const answer = (status: number, json: object) =>
          res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
        if (path === SCALE_PATH && req.method === 'GET') return answer(200, this.scale());
        if (path === SCALE_PATH && req.method === 'PATCH') {
          if (req.headers['content-type'] !== MERGE_PATCH) return answer(415, this.status(415, 'UnsupportedMediaType'));
          const patch = JSON.parse(body) as { spec?: { replicas?: number } };
          if (typeof patch.spec?.replicas === 'number') this.replicas = patch.spec.replicas;
          return answer(200, this.scale());
        }
        if (path === `/apis/apps/v1/namespaces/${NAMESPACE}/statefulsets/${SET}` && req.method === 'GET') {
          return answer(200, {
            apiVersion: 'apps/v1',
            kind: 'StatefulSet',
            metadata: { name: SET, namespace: NAMESPACE },
            spec: { replicas: this.replicas, serviceName: `${SET}-headless`, selector: { matchLabels: { app: SET } }, template: {} },
            status: { replicas: this.replicas, readyReplicas: this.replicas },
          });
        }
        return answer(404, this.status(404, 'NotFound'));
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  patches(): Recorded[] {
    return this.requests.filter((r) => r.method === 'PATCH');
  }

  private scale() {
    return {
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      metadata: { name: SET, namespace: NAMESPACE },
      spec: { replicas: this.replicas },
      status: { replicas: this.replicas, selector: `app=${SET}` },
    };
  }

  private status(code: number, reason: string) {
    return { apiVersion: 'v1', kind: 'Status', status: 'Failure', reason, code };
  }

  private read(req: IncomingMessage): Promise<string> {
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
  }
}

const COOLDOWN = 60_000;
const PER_REPLICA = 100;

/**
 * The sessions scaler against the real Redis (the replicas' registry, written as replicas write it) and a local fake
 * of the Kubernetes API, reached through @kubernetes/client-node as in the cluster. Time is the scaler's own clock,
 * moved by the test: rounds are called one by one.
 */
describe('sessions scaler', () => {
  const api = new FakeKubeApi();
  let server: string;
  let redis: Redis;
  let registry: ReplicaRegistry;
  let now: number;
  const started = new Date().toISOString();
  const logger = pino({ level: 'silent' });

  const scaler = (opts: Partial<ScalerOptions> = {}) =>
    new SessionsScaler(
      redis,
      registry,
      StatefulSetScale.connect(server, NAMESPACE, SET),
      {
        statefulSet: SET,
        sessionsPerReplica: PER_REPLICA,
        minReplicas: 1,
        maxReplicas: 6,
        cooldownMs: COOLDOWN,
        replicaTtlMs: 30_000,
        owner: `scaler-${randomUUID()}`,
        leaseTtlMs: 30_000,
        ...opts,
      },
      logger,
      () => now,
    );

  /** A replica's heartbeat, as whatsapp-sessions writes it; its sessions numbered from `first`. */
  const announce = async (index: number, load: number, first = index * 1000) => {
    // a heartbeat's time is the replica's clock in milliseconds: two in one millisecond would look like one
    await new Promise((r) => setTimeout(r, 2));
    await registry.heartbeat(
      { name: `${SET}-${index}`, pid: 100 + index, host: `node-${index}`, startedAt: started },
      {
        capacity: 500,
        load,
        memoryMb: 200,
        sessions: Array.from({ length: load }, (_, i) => first + i),
        companies: null,
        selfDraining: false,
      },
    );
  };
  const drained = async () => (await registry.live(30_000)).filter((r) => r.draining).map((r) => r.name);
  const drainFlags = async () => Object.keys(await redis.hgetall('wa:sessions:drains'));
  /** The pod is gone and its announcement with it (what `prune` does to a replica long unheard of). */
  const gone = (index: number) => redis.hdel('wa:sessions:replicas', `${SET}-${index}`);
  const patchBodies = () => api.patches().map((p) => ({ contentType: p.contentType, body: p.body }));

  beforeAll(async () => {
    server = await api.start();
  });

  beforeEach(() => {
    // each test in a keyspace of its own: other tests' replicas, drains and leases are not seen
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1, keyPrefix: `test:scaler:${randomUUID()}:` });
    registry = ReplicaRegistry.create(redis);
    now = 1_000_000;
    api.requests.length = 0;
  });

  afterEach(async () => {
    await redis.del('wa:sessions:replicas', 'wa:sessions:drains', 'wa:sessions:demand', SCALER_LEASE_KEY, 'wa:sessions:scaler:state');
    await redis.quit();
  });

  afterAll(async () => {
    await api.stop();
  });

  it('scales up at once to the demand over the per-replica target, by a merge patch of the scale subresource; then waits out the cooldown', async () => {
    api.replicas = 2;
    await announce(0, 120);
    await announce(1, 130);
    await registry.setDemand(350, 60_000);
    const s = scaler();

    expect(await s.tick()).toMatchObject({ action: 'scale-up', from: 2, to: 4 });
    expect(api.requests.filter((r) => r.method === 'GET').map((r) => r.path)).toContain(SCALE_PATH);
    expect(api.patches().map((p) => p.path)).toEqual([SCALE_PATH]);
    expect(patchBodies()).toEqual([{ contentType: MERGE_PATCH, body: JSON.stringify({ spec: { replicas: 4 } }) }]);
    expect(api.replicas).toBe(4);

    // more demand within the cooldown: no change until it has passed
    await registry.setDemand(520, 60_000);
    now += COOLDOWN - 1;
    expect(await s.tick()).toMatchObject({ action: 'cooldown', replicas: 4, desired: 6, remainingMs: 1 });
    expect(api.patches()).toHaveLength(1);
    now += 1;
    expect(await s.tick()).toMatchObject({ action: 'scale-up', from: 4, to: 6 });
    expect(patchBodies()[1]).toEqual({ contentType: MERGE_PATCH, body: JSON.stringify({ spec: { replicas: 6 } }) });

    // as many replicas as wanted: nothing to do
    now += COOLDOWN;
    expect(await s.tick()).toMatchObject({ action: 'hold', replicas: 6, desired: 6 });
    expect(api.patches()).toHaveLength(2);
  });

  it('counts the sessions the replicas hold when the demand count is lower or missing (it expired)', async () => {
    api.replicas = 1;
    await announce(0, 180); // no demand counted at all
    expect(await scaler().tick()).toMatchObject({ action: 'scale-up', from: 1, to: 2, sessions: 180 });
    expect(api.replicas).toBe(2);
  });

  it('scales down only after draining the highest replica and hearing it hold nothing; its drain is undone once its pod is gone', async () => {
    api.replicas = 3;
    await announce(0, 40);
    await announce(1, 30);
    await announce(2, 0); // holds nothing, but it has not yet seen the drain: it may be taking sessions now
    await registry.setDemand(70, 60_000);
    const s = scaler();

    // first round: the highest replica is drained, the StatefulSet left alone
    expect(await s.tick()).toMatchObject({ action: 'drain', replica: `${SET}-2`, replicas: 3, desired: 1 });
    expect(await drainFlags()).toEqual([`${SET}-2`]);
    expect(await drained()).toEqual([`${SET}-2`]);
    expect(api.patches()).toEqual([]);

    // no heartbeat since the drain: its earlier load 0 proves nothing
    now += 10_000;
    expect(await s.tick()).toMatchObject({ action: 'wait-drain', replica: `${SET}-2`, heard: false });
    // it took sessions meanwhile, and is handing them over
    await announce(2, 3);
    now += 10_000;
    expect(await s.tick()).toMatchObject({ action: 'wait-drain', replica: `${SET}-2`, load: 3, heard: true });
    await announce(2, 1);
    now += 10_000;
    expect(await s.tick()).toMatchObject({ action: 'wait-drain', load: 1 });
    expect(api.patches()).toEqual([]);
    expect(api.replicas).toBe(3);

    // it holds nothing: one step down
    await announce(2, 0);
    now += 10_000;
    expect(await s.tick()).toMatchObject({ action: 'scale-down', from: 3, to: 2, replica: `${SET}-2` });
    expect(patchBodies()).toEqual([{ contentType: MERGE_PATCH, body: JSON.stringify({ spec: { replicas: 2 } }) }]);
    expect(api.replicas).toBe(2);
    // its pod is still stopping: the drain stays, or it would take sessions back for a moment
    expect(await drainFlags()).toEqual([`${SET}-2`]);

    // the pod is gone: its drain is undone (a later pod of that name is not born drained); then the cooldown holds
    // the next step
    await gone(2);
    now += 10_000;
    expect(await s.tick()).toMatchObject({ action: 'cooldown', replicas: 2, desired: 1 });
    expect(await drainFlags()).toEqual([]);
    expect(api.patches()).toHaveLength(1);

    // after the cooldown the next step starts the same way, with the next highest replica
    now += COOLDOWN;
    await announce(0, 40);
    await announce(1, 30);
    expect(await s.tick()).toMatchObject({ action: 'drain', replica: `${SET}-1`, replicas: 2 });
    expect(api.patches()).toHaveLength(1);
  });

  it('undoes the drain of a removed replica whose pod is back (the StatefulSet scaled up by hand meanwhile)', async () => {
    api.replicas = 3;
    await announce(0, 10);
    await announce(1, 10);
    await announce(2, 0);
    await registry.setDemand(20, 60_000);
    const s = scaler();
    expect(await s.tick()).toMatchObject({ action: 'drain', replica: `${SET}-2` });
    await announce(2, 0);
    expect(await s.tick()).toMatchObject({ action: 'scale-down', from: 3, to: 2 });
    // its pod still stopping: left drained, and no further step meanwhile
    now += COOLDOWN;
    await announce(2, 0);
    expect(await s.tick()).toMatchObject({ action: 'wait-gone', replica: `${SET}-2` });
    expect(await drainFlags()).toEqual([`${SET}-2`]);

    // an operator scales it back to 3, as the demand now wants: that pod runs again, and is no longer drained
    api.replicas = 3;
    await registry.setDemand(250, 60_000);
    now += 10_000;
    expect(await s.tick()).toMatchObject({ action: 'hold', replicas: 3, desired: 3 });
    expect(await drainFlags()).toEqual([]);
    expect(await drained()).toEqual([]);
    expect(api.patches()).toHaveLength(1);
  });

  it('scales down as soon as the drained replica is gone (no longer announced)', async () => {
    api.replicas = 2;
    await announce(0, 10);
    await announce(1, 10);
    await registry.setDemand(20, 60_000);
    const s = scaler();
    expect(await s.tick()).toMatchObject({ action: 'drain', replica: `${SET}-1` });
    await gone(1);
    now += 10_000;
    expect(await s.tick()).toMatchObject({ action: 'scale-down', from: 2, to: 1 });
    expect(api.replicas).toBe(1);
  });

  it('undoes its drain when the demand rises again meanwhile, and scales up from there', async () => {
    api.replicas = 3;
    await announce(0, 30);
    await announce(1, 30);
    await announce(2, 30);
    await registry.setDemand(90, 60_000);
    const s = scaler();
    // one replica's worth: the highest replica is drained
    expect(await s.tick()).toMatchObject({ action: 'drain', replica: `${SET}-2`, desired: 1 });
    expect(await drainFlags()).toEqual([`${SET}-2`]);

    // back to three replicas' worth: the drain is undone, the StatefulSet kept
    await registry.setDemand(290, 60_000);
    now += 10_000;
    expect(await s.tick()).toMatchObject({ action: 'hold', replicas: 3, desired: 3 });
    expect(await drainFlags()).toEqual([]);
    expect(await drained()).toEqual([]);

    // and more than that: up at once
    await registry.setDemand(410, 60_000);
    now += 10_000;
    expect(await s.tick()).toMatchObject({ action: 'scale-up', from: 3, to: 5 });
    expect(api.patches()).toHaveLength(1);
  });

  it('keeps the count between its minimum and maximum', async () => {
    api.replicas = 1;
    await registry.setDemand(0, 60_000);
    const s = scaler({ minReplicas: 2, maxReplicas: 4 });
    // no sessions at all: still the minimum
    expect(await s.tick()).toMatchObject({ action: 'scale-up', from: 1, to: 2, sessions: 0 });
    expect(api.replicas).toBe(2);
    now += COOLDOWN;
    expect(await s.tick()).toMatchObject({ action: 'hold', replicas: 2, desired: 2 });

    // far more sessions than the maximum can hold: the maximum
    await registry.setDemand(10_000, 60_000);
    now += COOLDOWN;
    expect(await s.tick()).toMatchObject({ action: 'scale-up', from: 2, to: 4 });
    now += COOLDOWN;
    expect(await s.tick()).toMatchObject({ action: 'hold', replicas: 4, desired: 4 });

    // set above its maximum by hand: brought down, one drained replica at a time
    api.replicas = 6;
    now += COOLDOWN;
    expect(await s.tick()).toMatchObject({ action: 'drain', replica: `${SET}-5`, replicas: 6, desired: 4 });
    expect(patchBodies().map((p) => JSON.parse(p.body))).toEqual([{ spec: { replicas: 2 } }, { spec: { replicas: 4 } }]);
  });

  it('acts only while it holds the lease: of two scalers, one patches; the other takes over once it lets go', async () => {
    api.replicas = 1;
    await announce(0, 90);
    await registry.setDemand(250, 60_000);
    const a = scaler({ owner: 'scaler-a' });
    const b = scaler({ owner: 'scaler-b' });

    const [first, second] = await Promise.all([a.tick(), b.tick()]);
    const decisions = [first, second].map((d) => d.action).sort();
    expect(decisions).toEqual(['scale-up', 'standby']);
    expect(api.patches()).toHaveLength(1);
    expect(api.replicas).toBe(3);
    const [leader, other] = first.action === 'scale-up' ? [a, b] : [b, a];
    expect(await redis.get(SCALER_LEASE_KEY)).toBe(leader === a ? 'scaler-a' : 'scaler-b');

    // more demand: the standby scaler leaves it to the holder
    await registry.setDemand(550, 60_000);
    expect(await other.tick()).toMatchObject({ action: 'standby', holder: leader === a ? 'scaler-a' : 'scaler-b' });
    expect(api.patches()).toHaveLength(1);

    // the holder stops: the other acts at its next round, and respects the holder's cooldown (kept in Redis)
    await leader.stop();
    now += COOLDOWN - 1;
    expect(await other.tick()).toMatchObject({ action: 'cooldown', replicas: 3, desired: 6 });
    now += 1;
    expect(await other.tick()).toMatchObject({ action: 'scale-up', from: 3, to: 6 });
    expect(api.patches()).toHaveLength(2);
  });
});
