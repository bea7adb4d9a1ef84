import { randomInt } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { WaSubjects, type WaOutboundSend } from '@wa/contracts';
import { TEST_DATABASE_URL, uniqueSuffix, waitFor } from '@wa/testing';
import { createDataSource, runMigrations } from '@wa/database';
import { whatsappDatabase } from '../../src/database/data-source.js';
import { seedSandboxConnection } from '../../src/database/seed-sandbox.queries.js';
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
      await sleep(1200); // several of B's rounds looking for free sessions
      expect(b.runner.isRunning(c.id)).toBe(false);
      expect(a.runner.isRunning(c.id)).toBe(true);
      expect((await b.http.get(`/whatsappsession/${c.id}`, { token })).body).toEqual({
        connectionId: c.id,
        status: 'CONNECTED',
        owner: `test-a-${suffix}`,
      });

      // a request reaching B is carried out by A's session
      const from = `5521${randomInt(10_000_000, 99_999_999)}`;
      const viaB = await b.http.post(`/whatsappsession/${c.id}/sandbox/inbound`, { token, body: { from, body: 'pelo outro processo' } });
      expect(viaB.status).toBe(202);
      expect(await storedOn(b.jsm, WaSubjects.inbound(companyId, c.id, from))).toBe(1);
      // "try again" through B does not start a second copy
      expect((await b.http.post(`/whatsappsession/${c.id}`, { token })).status).toBe(200);
      expect(b.runner.isRunning(c.id)).toBe(false);

      await a.close();
      a = undefined;
      await waitFor(async () => b!.runner.isRunning(c.id), { timeoutMs: 10_000 });
      await waitForStatus(b, token, c.id, 'CONNECTED');
      expect((await b.http.get(`/whatsappsession/${c.id}`, { token })).body.owner).toBe(`test-b-${suffix}`);

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
