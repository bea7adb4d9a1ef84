import { randomInt } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import { WaSubjects, type PlatformSessionsPage, type WaOutboundSend } from '@wa/contracts';
import { TEST_REDIS_URL, uniqueSuffix, waitFor } from '@wa/testing';
import { Redis } from 'ioredis';
import { preferredReplica, ReplicaRegistry } from '../../src/runtime/replicas.js';
import { SandboxOutboxRepository } from '../../src/runtime/providers/sandbox/sandbox-outbox.repository.js';
import { SessionLeases } from '../../src/runtime/session-leases.js';
import {
  cleanup,
  companyPool,
  createConnection,
  startSessions,
  superTokenFor,
  tokenFor,
  waitForStatus,
  type SessionsUnderTest,
} from './harness.js';

/**
 * Sessions on several replicas (issue 43), in-process replicas against the real PostgreSQL, Redis and NATS: spread by
 * preference, the operators' view, a drain and its undoing, and fencing (a holder whose lease was taken sends nothing).
 * Killed processes and failover times: e2e/test/session-replicas.e2e-spec.ts and bench/sessions.
 */
const redis = new Redis(TEST_REDIS_URL);
afterAll(async () => {
  await redis.quit();
});

const fast = { REPLICA_HEARTBEAT_MS: '300', REPLICA_TTL_MS: '1500', SESSION_CLAIM_GRACE_MS: '1500' };

async function view(svc: SessionsUnderTest, token: string, query = ''): Promise<PlatformSessionsPage> {
  const res = await svc.http.get(`/platform/sessions${query}`, { token });
  expect(res.status).toBe(200);
  return res.body as PlatformSessionsPage;
}

describe('sessions on three replicas', () => {
  it('spreads the sessions by preference, shows them to operators only, and a drain hands a replica’s sessions over until undone', async () => {
    const [companyId] = companyPool(1) as [number];
    const token = tokenFor(companyId);
    const operator = superTokenFor(companyId);
    const suffix = uniqueSuffix();
    const replicas: SessionsUnderTest[] = [];
    const created: Array<{ id: number; token: string }> = [];
    try {
      for (const i of [0, 1, 2]) replicas.push(await startSessions([companyId], { ...fast, SESSION_OWNER_ID: `ws-${suffix}-${i}` }));
      const [r0, r1] = replicas as [SessionsUnderTest, SessionsUnderTest, SessionsUnderTest];
      for (let i = 0; i < 9; i++) created.push({ id: (await createConnection(r0, token, { name: `Réplica ${i}` })).id, token });
      const targets = replicas.map((r) => ({ name: r.owner, capacity: r.env.SESSION_MAX_PER_PROCESS }));
      const holderOf = (id: number) => replicas.filter((r) => r.runner.isRunning(id)).map((r) => r.owner);
      // each connection ends up on its preferred replica, and only there
      await waitFor(async () => created.every(({ id }) => holderOf(id).join() === preferredReplica(id, targets)), { timeoutMs: 20_000 });
      for (const { id } of created) await waitForStatus(r1, token, id, 'CONNECTED');

      // the operators' view: every replica, each connection with its replica and health; a company admin is refused
      expect((await r1.http.get('/platform/sessions', { token })).status).toBe(403);
      // a session's health figures reach Redis at its replica's next heartbeat: connectedSince shows once it has beaten
      const all = await waitFor(async () => {
        const v = await view(r1, operator, `?companyId=${companyId}`);
        return v.connections.length === 9 && v.connections.every((c) => c.connectedSince !== null) ? v : undefined;
      });
      const mine = all.replicas.filter((r) => r.name.startsWith(`ws-${suffix}-`));
      expect(mine.map((r) => r.name)).toEqual([0, 1, 2].map((i) => `ws-${suffix}-${i}`));
      for (const r of mine) {
        expect(r).toMatchObject({ pid: process.pid, draining: false, capacity: r0.env.SESSION_MAX_PER_PROCESS });
        expect(r.memoryMb).toBeGreaterThan(0);
      }
      expect(all.count).toBe(9);
      expect(await view(r1, operator, `?companyId=${companyId}&pageNumber=2`)).toMatchObject({ connections: [], count: 9, hasMore: false });
      expect(all.connections.map((c) => c.id).sort((a, b) => a - b)).toEqual(created.map((c) => c.id).sort((a, b) => a - b));
      for (const c of all.connections) {
        expect(c).toMatchObject({ companyId, status: 'CONNECTED', replica: preferredReplica(c.id, targets) });
        expect(c.connectedSince).not.toBeNull();
      }
      const loads = await waitFor(async () => {
        const v = await view(r1, operator, `?companyId=${companyId}`);
        const l = v.replicas.filter((r) => r.name.startsWith(`ws-${suffix}-`)).map((r) => r.load);
        return l.reduce((a, b) => a + b, 0) === 9 ? l : undefined;
      });
      expect(loads).toHaveLength(3);
      // the filters
      const statusFiltered = await view(r1, operator, `?companyId=${companyId}&status=DISCONNECTED`);
      expect(statusFiltered.connections).toEqual([]);
      const busiest = [...replicas].sort((a, b) => b.runner.runningIds().length - a.runner.runningIds().length)[0] as SessionsUnderTest;
      // the replica filter is what the replica announced at its last heartbeat
      const onBusiest = await waitFor(async () => {
        const v = await view(r1, operator, `?companyId=${companyId}&replica=${busiest.owner}`);
        return v.connections.length === busiest.runner.runningIds().length ? v : undefined;
      });
      expect(onBusiest.connections.map((c) => c.replica)).toEqual(onBusiest.connections.map(() => busiest.owner));
      const bad = await r1.http.get('/platform/sessions?status=SLEEPING', { token: operator });
      expect([bad.status, bad.body.error]).toEqual([400, 'ERR_VALIDATION']);

      // drain the busiest through another replica: it hands everything over and takes nothing
      const drained = await r1.http.post(`/platform/sessions/replicas/${busiest.owner}/drain`, { token: operator });
      expect([drained.status, drained.body]).toEqual([200, { name: busiest.owner, draining: true }]);
      await waitFor(async () => busiest.runner.runningIds().length === 0, { timeoutMs: 20_000 });
      await waitFor(async () => created.every(({ id }) => holderOf(id).length === 1), { timeoutMs: 20_000 });
      for (const { id } of created) await waitForStatus(r1, token, id, 'CONNECTED');
      expect((await view(r1, operator, `?companyId=${companyId}`)).replicas.find((r) => r.name === busiest.owner)?.draining).toBe(true);
      expect((await r1.http.post('/platform/sessions/replicas/nobody-here/drain', { token: operator })).body.error).toBe(
        'ERR_NO_REPLICA_FOUND',
      );
      expect((await r1.http.post(`/platform/sessions/replicas/${busiest.owner}/drain`, { token })).status).toBe(403);

      // undone: it takes back the sessions that prefer it
      const undone = await r1.http.delete(`/platform/sessions/replicas/${busiest.owner}/drain`, { token: operator });
      expect([undone.status, undone.body]).toEqual([200, { name: busiest.owner, draining: false }]);
      await waitFor(async () => created.every(({ id }) => holderOf(id).join() === preferredReplica(id, targets)), { timeoutMs: 30_000 });
    } finally {
      if (replicas[0]) await cleanup(replicas[0], created);
      for (const r of replicas) await r.close();
    }
  }, 90_000);
});

describe('fencing', () => {
  it('a holder whose lease was taken sends nothing more; the send goes out once, by the next holder', async () => {
    const [companyId] = companyPool(1) as [number];
    const token = tokenFor(companyId);
    const suffix = uniqueSuffix();
    // a long renewal period: the holder learns late that its lease is gone, and must not send meanwhile
    const a = await startSessions([companyId], {
      ...fast,
      SESSION_LEASE_RENEW_MS: '5000',
      SESSION_LEASE_TTL_MS: '30000',
      SESSION_OWNER_ID: `fence-${suffix}`,
    });
    let connectionId = 0;
    try {
      const c = await createConnection(a, token, { name: 'Fencing' });
      connectionId = c.id;
      await waitForStatus(a, token, c.id, 'CONNECTED');
      // another replica takes the lease (as one that saw this one dead would): a new epoch; it stays alive meanwhile
      const intruder = { name: `intruder-${suffix}`, pid: 1, host: 'elsewhere', startedAt: new Date().toISOString() };
      const registry = ReplicaRegistry.create(redis);
      const beat = () =>
        registry.heartbeat(intruder, { capacity: 1, load: 1, sessions: [c.id], memoryMb: 1, selfDraining: false, companies: [companyId] });
      await beat();
      const alive = setInterval(() => void beat(), 200);
      await redis.set(SessionLeases.key(c.id), intruder.name, 'PX', 30_000);
      await redis.incr(SessionLeases.epochKey(c.id));
      const to = `5521${randomInt(10_000_000, 99_999_999)}`;
      const send: WaOutboundSend = {
        companyId,
        connectionId: c.id,
        waMessageId: `3EB0${suffix.toUpperCase()}FENCE`,
        to,
        body: 'depois da perda do lease',
        ticketId: 1,
        messageId: 1,
      };
      await a.bus.publish(WaSubjects.outbound(c.id), send, { msgId: WaSubjects.outboundMsgId(send.waMessageId) });
      const outbox = async () =>
        ((await a.http.get(`/whatsappsession/${c.id}/sandbox/outbox`, { token })).body.items as Array<{ waMessageId: string }>).filter(
          (i) => i.waMessageId === send.waMessageId,
        );
      // until its renewal notices, the old holder keeps the session but sends nothing
      await new Promise((r) => setTimeout(r, 3000));
      expect(await outbox()).toEqual([]);
      // the intruder goes away (its lease released): the session is taken again, at a new epoch, and the send goes out once
      clearInterval(alive);
      await redis.del(SessionLeases.key(c.id));
      await waitFor(async () => (await outbox()).length === 1, { timeoutMs: 30_000 });
      await new Promise((r) => setTimeout(r, 1000));
      expect(await outbox()).toHaveLength(1);
    } finally {
      if (connectionId) await cleanup(a, [{ id: connectionId, token }]);
      await a.close();
    }
  }, 60_000);
});

describe("the sandbox phone's outbox, as WhatsApp delivers", () => {
  it('shows a send transmitted again (the same id) once, with its transmissions counted; edits stay a row each', async () => {
    const [companyId] = companyPool(1) as [number];
    const token = tokenFor(companyId);
    const svc = await startSessions([companyId], fast);
    let connectionId = 0;
    try {
      const c = await createConnection(svc, token, { name: 'Outbox' });
      connectionId = c.id;
      const outbox = svc.app.get(SandboxOutboxRepository);
      const suffix = uniqueSuffix().toUpperCase();
      const send = { connectionId: c.id, companyId, waMessageId: `3EB0${suffix}ONCE`, to: '5521999990000', body: 'uma vez' };
      // a replica killed after the wire, before marking it sent: its successor transmits it again (twice in one batch, once later)
      await Promise.all([outbox.record(send), outbox.record(send)]);
      await outbox.record(send);
      await outbox.record({ ...send, body: 'uma vez, editada', kind: 'edit' });
      await outbox.record({ ...send, body: 'uma vez, editada de novo', kind: 'edit' });
      const rows = (await svc.db.query(
        `SELECT kind, body, transmissions FROM whatsapp.sandbox_outbox WHERE "connectionId" = $1 ORDER BY id`,
        [c.id],
      )) as Array<{ kind: string; body: string; transmissions: number }>;
      expect(rows).toEqual([
        { kind: 'send', body: 'uma vez', transmissions: 3 },
        { kind: 'edit', body: 'uma vez, editada', transmissions: 1 },
        { kind: 'edit', body: 'uma vez, editada de novo', transmissions: 1 },
      ]);
      const page = await svc.http.get(`/whatsappsession/${c.id}/sandbox/outbox`, { token });
      expect((page.body.items as Array<{ kind: string }>).filter((i) => i.kind === 'send')).toHaveLength(1);
    } finally {
      if (connectionId) await cleanup(svc, [{ id: connectionId, token }]);
      await svc.close();
    }
  });
});
