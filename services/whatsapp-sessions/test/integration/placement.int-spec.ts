import { randomInt } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { WaSubjects, type WaOutboundSend } from '@wa/contracts';
import { TEST_DATABASE_URL, uniqueSuffix, waitFor } from '@wa/testing';
import { createDataSource, runMigrations } from '@wa/database';
import { whatsappDatabase } from '../../src/database/data-source.js';
import { seedSandboxConnection } from '../../src/database/seed-sandbox.queries.js';
import { preferredReplica } from '../../src/runtime/replicas.js';
import {
  cleanup,
  companyPool,
  createConnection,
  startSessions,
  storedOn,
  tokenFor,
  waitForStatus,
  type SessionsUnderTest,
} from './harness.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('placement', () => {
  it('runs a session in one process only, routes commands to it, and moves it when that process shuts down', async () => {
    const [companyId] = companyPool(1) as [number];
    const token = tokenFor(companyId);
    const suffix = uniqueSuffix();
    let a: SessionsUnderTest | undefined = await startSessions([companyId], { SESSION_OWNER_ID: `test-a-${suffix}` });
    let b: SessionsUnderTest | undefined;
    let connectionId = 0;
    try {
      const c = await createConnection(a, token, { name: 'Placement' });
      connectionId = c.id;
      expect(c.status).toBe('CONNECTED');
      expect(a.runner.isRunning(c.id)).toBe(true);

      b = await startSessions([companyId], { SESSION_OWNER_ID: `test-b-${suffix}` });
      // the connection prefers one of the two (rendezvous hashing): it ends up there, never running in both meanwhile
      const preferred = preferredReplica(
        c.id,
        [a, b].map((x) => ({ name: x.owner, capacity: x.env.SESSION_MAX_PER_PROCESS })),
      );
      const [holder, other] = preferred === a.owner ? [a, b] : [b, a];
      await waitFor(
        async () => {
          expect(a!.runner.isRunning(c.id) && b!.runner.isRunning(c.id)).toBe(false);
          return holder.runner.isRunning(c.id);
        },
        { timeoutMs: 10_000, intervalMs: 20 },
      );
      await sleep(1200); // several of the other's rounds looking for free sessions
      expect(other.runner.isRunning(c.id)).toBe(false);
      await waitForStatus(holder, token, c.id, 'CONNECTED');
      expect((await other.http.get(`/whatsappsession/${c.id}/placement`, { token })).body).toEqual({
        connectionId: c.id,
        status: 'CONNECTED',
        owner: holder.owner,
      });

      // a request reaching the other is carried out by the holder's session
      const from = `5521${randomInt(10_000_000, 99_999_999)}`;
      const viaOther = await other.http.post(`/whatsappsession/${c.id}/sandbox/inbound`, {
        token,
        body: { from, body: 'pelo outro processo' },
      });
      expect(viaOther.status).toBe(202);
      expect(await storedOn(other.jsm, WaSubjects.inbound(companyId, c.id, from))).toBe(1);
      // "try again" through the other does not start a second copy
      expect((await other.http.post(`/whatsappsession/${c.id}`, { token })).status).toBe(200);
      expect(other.runner.isRunning(c.id)).toBe(false);

      // the holder shuts down: the other takes the session over
      await holder.close();
      // from here on `b` is the survivor (closed in the end), whichever it was
      b = other;
      a = undefined;
      await waitFor(async () => b!.runner.isRunning(c.id), { timeoutMs: 10_000 });
      await waitForStatus(b, token, c.id, 'CONNECTED');
      expect((await b.http.get(`/whatsappsession/${c.id}`, { token })).body.owner).toBe(b.owner);

      // B now also owns the connection's outbound consumer
      const send: WaOutboundSend = {
        companyId,
        connectionId: c.id,
        waMessageId: `3EB0${suffix.toUpperCase()}PLACE`,
        to: from,
        body: 'depois da mudança',
        ticketId: 1,
        messageId: 1,
      };
      await b.bus.publish(WaSubjects.outbound(c.id), send, { msgId: WaSubjects.outboundMsgId(send.waMessageId) });
      const sent = await waitFor(async () => {
        const box = await b!.http.get(`/whatsappsession/${c.id}/sandbox/outbox`, { token });
        return box.body.items?.find((i: { waMessageId: string }) => i.waMessageId === send.waMessageId);
      });
      expect(sent).toMatchObject({ to: from, body: 'depois da mudança' });
    } finally {
      if (b && connectionId) await cleanup(b, [{ id: connectionId, token }]);
      await a?.close();
      await b?.close();
    }
  });

  it("starts, at boot, the sessions left not DISCONNECTED (the seed's sandbox connection)", async () => {
    const [companyId] = companyPool(1) as [number];
    const token = tokenFor(companyId);
    const ds = createDataSource(whatsappDatabase(TEST_DATABASE_URL, 2));
    await runMigrations(whatsappDatabase(TEST_DATABASE_URL));
    await ds.initialize();
    let connectionId: number;
    try {
      const [first, second] = await Promise.all([
        seedSandboxConnection(ds, { companyId, queueId: 42 }),
        seedSandboxConnection(ds, { companyId, queueId: 42 }),
      ]);
      expect([first.created, second.created].sort()).toEqual([false, true]);
      connectionId = (first.connectionId ?? second.connectionId)!;
      expect((await seedSandboxConnection(ds, { companyId })).created).toBe(false);
    } finally {
      await ds.destroy();
    }
    const svc = await startSessions([companyId]);
    try {
      const c = await waitForStatus(svc, token, connectionId, 'CONNECTED');
      expect(c).toMatchObject({ name: 'Sandbox', isDefault: true, channel: 'sandbox', queueIds: [42] });
      expect(svc.runner.isRunning(connectionId)).toBe(true);
      expect((await svc.http.get(`/whatsappsession/${connectionId}`, { token })).body.owner).toBe(svc.owner);
    } finally {
      await cleanup(svc, [{ id: connectionId, token }]);
      await svc.close();
    }
  });
});
