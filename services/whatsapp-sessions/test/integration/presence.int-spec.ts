import { randomInt } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import {
  PresenceSubjects,
  sessionCommandSubject,
  type PresenceCommand,
  type SandboxPresencesResponse,
  type WaPresence,
} from '@wa/contracts';
import { listen, request } from '@wa/event-bus';
import { waitFor } from '@wa/testing';
import { createConnection, tokenFor, waitForStatus, type SessionsUnderTest, socketOf } from './harness.js';
import { scriptedSessionsSuite } from './scripted-socket.js';

/**
 * Presence (issue 45 §5): a customer typing or recording reaches the bus (core NATS `presence.wa.*`, no stream), and
 * the agent's typing reaches the customer (the `sendPresence` command tickets sends) — through the sandbox's routes,
 * and at Baileys' boundary (a scripted socket emitting Baileys' own `presence.update`), against the real NATS.
 */
let next = 0;
let svc: SessionsUnderTest;
const { companies, sockets, created, svc: running } = scriptedSessionsSuite(3);
beforeAll(() => {
  svc = running();
});

const mobile = () => `55119${randomInt(10_000_000, 99_999_999)}`;
const stops: Array<() => void> = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

/** What is announced on a connection's presence subject from now on. */
async function heard(companyId: number, connectionId: number): Promise<WaPresence[]> {
  const got: WaPresence[] = [];
  stops.push(listen<WaPresence>(svc.bus, PresenceSubjects.wa(companyId, connectionId), (p) => void got.push(p)));
  await svc.bus.connection.flush();
  return got;
}

function ask(connectionId: number, command: PresenceCommand): Promise<{ ok: boolean; code?: string }> {
  return request(svc.bus, sessionCommandSubject(connectionId), command, { timeoutMs: 5000 });
}

async function sandboxConnection() {
  const companyId = companies[next++]!;
  const token = tokenFor(companyId);
  const c = await createConnection(svc, token, { name: 'Sandbox' });
  created.push({ id: c.id, token });
  await waitForStatus(svc, token, c.id, 'CONNECTED');
  return { companyId, token, id: c.id };
}

describe('presence through the sandbox phone', () => {
  it("announces a customer's typing, recording and stop, and a bare LID the company's map knows by its number", async () => {
    const { companyId, token, id } = await sandboxConnection();
    const got = await heard(companyId, id);
    const customer = mobile();
    for (const state of ['composing', 'recording', 'paused'] as const) {
      const res = await svc.http.post(`/whatsappsession/${id}/sandbox/presence`, { token, body: { from: customer, state } });
      expect(res.status).toBe(204);
    }
    await waitFor(async () => got.length === 3, { timeoutMs: 5000 });
    expect(got).toEqual(
      ['composing', 'recording', 'paused'].map((state) => ({ companyId, connectionId: id, from: customer, state, at: expect.any(Number) })),
    );

    // WhatsApp names a customer by a LID: unknown, it stays a LID; once WhatsApp told its number, it goes by the number
    const lid = `${randomInt(100_000_000, 999_999_999)}${randomInt(100_000, 999_999)}`;
    await svc.http.post(`/whatsappsession/${id}/sandbox/presence`, { token, body: { from: `${lid}@lid`, state: 'composing' } });
    await waitFor(async () => got.length === 4, { timeoutMs: 5000 });
    expect(got[3]).toMatchObject({ from: `${lid}@lid`, state: 'composing' });
    const pn = mobile();
    expect((await svc.http.post(`/whatsappsession/${id}/sandbox/lid-mapping`, { token, body: { lid, pn } })).status).toBeLessThan(300);
    await svc.http.post(`/whatsappsession/${id}/sandbox/presence`, { token, body: { from: `${lid}@lid`, state: 'composing' } });
    await waitFor(async () => got.length === 5, { timeoutMs: 5000 });
    expect(got[4]).toMatchObject({ from: pn, state: 'composing' });
  });

  it("tells the customer the agent's presence (sendPresence), and refuses what is no presence", async () => {
    const { token, id } = await sandboxConnection();
    const customer = mobile();
    expect(await ask(id, { action: 'sendPresence', to: customer, state: 'composing' })).toEqual({ ok: true });
    expect(await ask(id, { action: 'sendPresence', to: customer, state: 'paused' })).toEqual({ ok: true });
    const res = await svc.http.get(`/whatsappsession/${id}/sandbox/presence`, { token });
    expect(res.status).toBe(200);
    expect((res.body as SandboxPresencesResponse).presences).toEqual([
      { to: customer, state: 'composing', at: expect.any(Number) },
      { to: customer, state: 'paused', at: expect.any(Number) },
    ]);

    expect(await ask(id, { action: 'sendPresence', to: customer, state: 'dancing' as never })).toMatchObject({
      ok: false,
      code: 'ERR_VALIDATION',
    });
    expect(await ask(id, { action: 'sendPresence', to: '', state: 'composing' })).toMatchObject({ ok: false, code: 'ERR_VALIDATION' });
    for (const body of [{ from: customer, state: 'typing' }, { from: 'abc', state: 'composing' }, { from: customer }]) {
      expect((await svc.http.post(`/whatsappsession/${id}/sandbox/presence`, { token, body })).status).toBe(400);
    }
    // another company's connection is none of the caller's
    const other = tokenFor(companies[2]!);
    expect(
      (await svc.http.post(`/whatsappsession/${id}/sandbox/presence`, { token: other, body: { from: customer, state: 'composing' } }))
        .status,
    ).toBe(404);
  });
});

describe("presence at Baileys' boundary", () => {
  it("announces Baileys' presence.update of a one-to-one chat (not a group's), and sends the agent's with sendPresenceUpdate", async () => {
    const companyId = companies[2]!;
    const token = tokenFor(companyId);
    const c = await createConnection(svc, token, { name: 'Baileys', channel: 'baileys' });
    created.push({ id: c.id, token });
    const sock = await socketOf(sockets, c.id);
    sock.open('5511944443333');
    await waitForStatus(svc, token, c.id, 'CONNECTED');
    const got = await heard(companyId, c.id);

    const pn = mobile();
    const jid = `${pn}@s.whatsapp.net`;
    sock.ev.emit('presence.update', { id: '120363041234567890@g.us', presences: { [jid]: { lastKnownPresence: 'composing' } } });
    sock.ev.emit('presence.update', { id: jid, presences: { [jid]: { lastKnownPresence: 'composing' } } });
    sock.ev.emit('presence.update', { id: jid, presences: { [jid]: { lastKnownPresence: 'recording' } } });
    sock.ev.emit('presence.update', { id: jid, presences: { [jid]: { lastKnownPresence: 'available', lastSeen: 1 } } });
    await waitFor(async () => got.length >= 3, { timeoutMs: 5000 });
    await new Promise((r) => setTimeout(r, 200));
    expect(got.map((p) => [p.from, p.state])).toEqual([
      [pn, 'composing'],
      [pn, 'recording'],
      [pn, 'paused'],
    ]);

    // the agent types: WhatsApp is asked to tell this chat's presence (once), then told the agent's
    expect(await ask(c.id, { action: 'sendPresence', to: pn, state: 'composing' })).toEqual({ ok: true });
    expect(await ask(c.id, { action: 'sendPresence', to: pn, state: 'recording' })).toEqual({ ok: true });
    expect(sock.presencesSent).toEqual([
      { type: 'composing', toJid: jid },
      { type: 'recording', toJid: jid },
    ]);
    expect(sock.presenceSubscriptions).toEqual([jid]);
  });
});
