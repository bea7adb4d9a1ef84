import { randomBytes, randomInt } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import type { WACallEvent } from '@whiskeysockets/baileys';
import { sessionCommandSubject, WaSubjects, type CallRejectCommand, type SandboxCallItem, type WaCall } from '@wa/contracts';
import { request } from '@wa/event-bus';
import { waitFor } from '@wa/testing';
import { createConnection, lastOn, storedOn, tokenFor, waitForStatus, type SessionsUnderTest, socketOf } from './harness.js';
import { scriptedSessionsSuite } from './scripted-socket.js';

/**
 * Calls (issue 42 §8, the `call` setting): an offer to the phone is published once on `wa.call.*`, and the session
 * rejects a call when asked (`rejectCall`, the command tickets sends). Through the sandbox's routes, and at Baileys'
 * boundary (a scripted socket emitting Baileys' own `call` events), against the real PostgreSQL and NATS.
 */
let next = 0;
let svc: SessionsUnderTest;
const { companies, sockets, created, svc: running } = scriptedSessionsSuite(3);
beforeAll(() => {
  svc = running();
});

const mobile = () => `55119${randomInt(10_000_000, 99_999_999)}`;
const callId = () => randomBytes(16).toString('hex').toUpperCase();

/** What the holder answers a session command (as tickets asks it: core NATS request on the connection's subject). */
function ask(connectionId: number, command: CallRejectCommand): Promise<{ ok: boolean; code?: string }> {
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

async function callsOf(id: number, token: string): Promise<SandboxCallItem[]> {
  const res = await svc.http.get(`/whatsappsession/${id}/sandbox/calls`, { token });
  expect(res.status).toBe(200);
  return (res.body as { items: SandboxCallItem[] }).items;
}

describe('calls through the sandbox phone', () => {
  it('publishes an offer once with the caller, shows it ringing, and the rejectCall command marks it rejected', async () => {
    const { companyId, token, id } = await sandboxConnection();
    const caller = mobile();
    const res = await svc.http.post(`/whatsappsession/${id}/sandbox/call`, { token, body: { from: caller, isVideo: true } });
    expect(res.status).toBe(200);
    const { callId: offered } = res.body as { callId: string };
    expect(offered).toMatch(/^[0-9A-F]{32}$/);

    const subject = WaSubjects.call(companyId, id, caller);
    const stored = await lastOn<WaCall>(svc.jsm, subject);
    expect(stored.data).toEqual({
      companyId,
      connectionId: id,
      callId: offered,
      from: caller,
      isVideo: true,
      isGroup: false,
      at: expect.any(Number),
    });
    expect(stored.msgId).toBe(WaSubjects.callMsgId(id, offered));
    expect(await storedOn(svc.jsm, subject)).toBe(1);
    expect(await callsOf(id, token)).toEqual([
      { callId: offered, from: caller, isVideo: true, state: 'ringing', offeredAt: expect.any(String), rejectedAt: null },
    ]);

    // tickets asks the session's holder to reject it
    expect(await ask(id, { action: 'rejectCall', callId: offered, from: caller })).toEqual({ ok: true });
    const [call] = await callsOf(id, token);
    expect(call).toMatchObject({ callId: offered, state: 'rejected', rejectedAt: expect.any(String) });
    // a second rejection of the same call changes nothing (a redelivered event asks again)
    expect(await ask(id, { action: 'rejectCall', callId: offered, from: caller })).toEqual({ ok: true });
    expect((await callsOf(id, token))[0]).toEqual(call);
    expect(await storedOn(svc.jsm, subject)).toBe(1);
  });

  it('takes a caller WhatsApp names by a LID; refuses what is no caller (400) and a command without a call (ERR_VALIDATION)', async () => {
    const { companyId, token, id } = await sandboxConnection();
    const lid = `${randomInt(100_000_000, 999_999_999)}${randomInt(100_000, 999_999)}@lid`;
    const res = await svc.http.post(`/whatsappsession/${id}/sandbox/call`, { token, body: { from: lid } });
    expect(res.status).toBe(200);
    const stored = await lastOn<WaCall>(svc.jsm, WaSubjects.call(companyId, id, lid));
    expect(stored.data).toMatchObject({ callId: (res.body as { callId: string }).callId, from: lid, isVideo: false });

    for (const from of ['abc', '123', '5511999990001@s.whatsapp.net']) {
      const bad = await svc.http.post(`/whatsappsession/${id}/sandbox/call`, { token, body: { from } });
      expect(bad.status).toBe(400);
    }
    expect((await svc.http.post(`/whatsappsession/${id}/sandbox/call`, { token, body: { from: mobile(), isVideo: 'yes' } })).status).toBe(
      400,
    );
    expect(await ask(id, { action: 'rejectCall', callId: '', from: mobile() })).toMatchObject({ ok: false, code: 'ERR_VALIDATION' });
    // another company's connection is none of the caller's
    const other = tokenFor(companies[2]!);
    expect((await svc.http.post(`/whatsappsession/${id}/sandbox/call`, { token: other, body: { from: mobile() } })).status).toBe(404);
  });
});

describe("calls at Baileys' boundary", () => {
  it("publishes Baileys' offer once (its later states and a repeated offer tell nothing) and rejects through sock.rejectCall", async () => {
    const companyId = companies[2]!;
    const token = tokenFor(companyId);
    const c = await createConnection(svc, token, { name: 'Baileys', channel: 'baileys' });
    created.push({ id: c.id, token });
    const sock = await socketOf(sockets, c.id);
    sock.open('5511944443333');
    await waitForStatus(svc, token, c.id, 'CONNECTED');

    // a customer calls by their phone number: offer, ringing, the same offer again, then they hang up
    const pn = mobile();
    const voice = callId();
    const date = new Date(Math.floor(Date.now() / 1000) * 1000 - 2000);
    const offer: WACallEvent = {
      chatId: `${pn}@s.whatsapp.net`,
      from: `${pn}@s.whatsapp.net`,
      id: voice,
      date,
      isVideo: false,
      isGroup: false,
      status: 'offer',
      offline: false,
    };
    sock.call(offer);
    sock.call({ ...offer, status: 'ringing' });
    sock.call(offer);
    const subject = WaSubjects.call(companyId, c.id, pn);
    const stored = await waitFor(async () => (await storedOn(svc.jsm, subject)) > 0 && lastOn<WaCall>(svc.jsm, subject), {
      timeoutMs: 5000,
    });
    expect(stored.data).toEqual({
      companyId,
      connectionId: c.id,
      callId: voice,
      from: pn,
      isVideo: false,
      isGroup: false,
      at: date.getTime(),
    });
    sock.call({ ...offer, status: 'terminate' });

    // a video call from a LID that carries the caller's number (callerPn), and one from a bare LID
    const lid = `${randomInt(100_000_000, 999_999_999)}${randomInt(100_000, 999_999)}`;
    const other = mobile();
    const video = callId();
    const hidden = callId();
    sock.call(
      {
        chatId: `${lid}@lid`,
        from: `${lid}@lid`,
        callerPn: `${other}@s.whatsapp.net`,
        id: video,
        date,
        isVideo: true,
        status: 'offer',
        offline: false,
      },
      { chatId: `${lid}1@lid`, from: `${lid}1@lid`, id: hidden, date, isVideo: false, status: 'offer', offline: true },
    );
    const byNumber = await waitFor(async () => (await storedOn(svc.jsm, WaSubjects.call(companyId, c.id, other))) > 0 && true, {
      timeoutMs: 5000,
    });
    expect(byNumber).toBe(true);
    expect((await lastOn<WaCall>(svc.jsm, WaSubjects.call(companyId, c.id, other))).data).toMatchObject({
      callId: video,
      from: other,
      isVideo: true,
    });
    const bare = `${lid}1@lid`;
    await waitFor(async () => (await storedOn(svc.jsm, WaSubjects.call(companyId, c.id, bare))) > 0, { timeoutMs: 5000 });
    expect((await lastOn<WaCall>(svc.jsm, WaSubjects.call(companyId, c.id, bare))).data).toMatchObject({ callId: hidden, from: bare });
    expect(await storedOn(svc.jsm, subject)).toBe(1);

    // rejected as WhatsApp named the caller in the offer (the LID), and by address for a call this process never saw
    expect(await ask(c.id, { action: 'rejectCall', callId: video, from: other })).toEqual({ ok: true });
    expect(await ask(c.id, { action: 'rejectCall', callId: voice, from: pn })).toEqual({ ok: true });
    const unseen = callId();
    expect(await ask(c.id, { action: 'rejectCall', callId: unseen, from: bare })).toEqual({ ok: true });
    expect(sock.rejectedCalls).toEqual([
      { callId: video, callFrom: `${lid}@lid` },
      { callId: voice, callFrom: `${pn}@s.whatsapp.net` },
      { callId: unseen, callFrom: bare },
    ]);
  });
});
