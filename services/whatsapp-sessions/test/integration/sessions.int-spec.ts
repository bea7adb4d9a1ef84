import { randomInt } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import {
  sessionCommandSubject,
  WaSubjects,
  type ConnectionSessionEvent,
  type SandboxOutboxItem,
  type WaAck,
  type WaAcks,
  type WaInboundBatch,
  type WaInboundMessage,
  type WaOutboundSend,
} from '@wa/contracts';
import { laneOf, NoRespondersError, request } from '@wa/event-bus';
import { InboundPublisher } from '../../src/runtime/inbound-publisher.js';
import { NotOnWhatsapp } from '../../src/runtime/not-on-whatsapp.js';
import type { LiveSession } from '../../src/runtime/live-session.js';
import { waitFor } from '@wa/testing';
import {
  Collector,
  connectionOf,
  createConnection,
  heldOn,
  lastOn,
  sessionsSuite,
  storedOn,
  tokenFor,
  waitForStatus,
  type SessionsUnderTest,
} from './harness.js';

let next = 0;
let svc: SessionsUnderTest;
const { companies, created } = sessionsSuite(14, (s) => (svc = s));

async function sandboxConnection() {
  const companyId = companies[next++]!;
  const token = tokenFor(companyId);
  const c = await createConnection(svc, token, { name: 'Sandbox' });
  created.push({ id: c.id, token });
  return { companyId, token, id: c.id, created: c };
}

const phone = () => `55119${String(randomInt(10_000_000, 99_999_999))}`;

async function outbox(token: string, id: number, pageNumber = 1): Promise<{ items: SandboxOutboxItem[]; hasMore: boolean }> {
  const res = await svc.http.get(`/whatsappsession/${id}/sandbox/outbox?pageNumber=${pageNumber}`, { token });
  if (res.status !== 200) throw new Error(`outbox: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

function outboundSend(
  c: { companyId: number; id: number },
  to: string,
  body: string,
  waMessageId = `3EB0${randomInt(1e9).toString(16).toUpperCase()}${Date.now().toString(16).toUpperCase()}`,
): WaOutboundSend {
  return { companyId: c.companyId, connectionId: c.id, waMessageId, to, body, ticketId: 1, messageId: randomInt(1e6) };
}

/** Resolves once the connection's outbound consumer has handled everything published so far. */
async function outboundDrained(connectionId: number, atLeastSeq: number): Promise<void> {
  await waitFor(async () => {
    const info = await svc.jsm.consumers.info('WA', `wa-out-${connectionId}`);
    return info.ack_floor.stream_seq >= atLeastSeq && info.num_ack_pending === 0 && info.num_pending === 0;
  });
}

describe('sessions: start and end', () => {
  it('starts a sandbox session on create (OPENING → CONNECTED), ends it (DISCONNECTED) and starts it again, publishing each change', async () => {
    const companyId = companies[next++]!;
    const token = tokenFor(companyId);
    const events = new Collector<ConnectionSessionEvent>(svc.nc, `connection.session.${companyId}.>`);
    try {
      const c = await createConnection(svc, token, { name: 'Sessão' });
      created.push({ id: c.id, token });
      expect(c.status).toBe('CONNECTED');
      expect((await connectionOf(svc, token, c.id)).status).toBe('CONNECTED');
      await events.waitFor((e) => e.data.status === 'CONNECTED');
      const statuses = events.items.map((e) => e.data.status);
      expect(statuses.indexOf('OPENING')).toBeLessThan(statuses.indexOf('CONNECTED'));
      const connected = events.items.find((e) => e.data.status === 'CONNECTED')!;
      expect(connected.subject).toBe(`connection.session.${companyId}.${c.id}`);
      expect(connected.data).toMatchObject({
        companyId,
        connectionId: c.id,
        qrcode: '',
        session: { id: c.id, status: 'CONNECTED', name: 'Sessão' },
      });
      const placement = await svc.http.get(`/whatsappsession/${c.id}`, { token });
      expect(placement.body).toEqual({ connectionId: c.id, status: 'CONNECTED', owner: svc.owner });

      const end = await svc.http.delete(`/whatsappsession/${c.id}`, { token });
      expect(end.status).toBe(200);
      expect(end.body).toEqual({ message: 'Session disconnected.' });
      expect((await connectionOf(svc, token, c.id)).status).toBe('DISCONNECTED');
      await events.waitFor((e) => e.data.status === 'DISCONNECTED');
      expect(svc.runner.isRunning(c.id)).toBe(false);
      expect((await svc.http.get(`/whatsappsession/${c.id}`, { token })).body.owner).toBeNull();

      const start = await svc.http.post(`/whatsappsession/${c.id}`, { token });
      expect(start.status).toBe(200);
      expect(start.body).toEqual({ message: 'Starting session.' });
      await waitForStatus(svc, token, c.id, 'CONNECTED');
      // the event follows the stored state (the outbox relay publishes it after commit)
      await waitFor(async () => events.items.filter((e) => e.data.status === 'CONNECTED').length === 2);

      // a new pairing (the "new QR" button) goes through OPENING again
      const opening = events.items.filter((e) => e.data.status === 'OPENING').length;
      expect((await svc.http.put(`/whatsappsession/${c.id}`, { token })).status).toBe(200);
      await waitFor(async () => events.items.filter((e) => e.data.status === 'CONNECTED').length === 3);
      expect(events.items.filter((e) => e.data.status === 'OPENING').length).toBe(opening + 1);
      expect(new Set(events.items.map((e) => e.msgId)).size).toBe(events.items.length);
    } finally {
      events.close();
    }
  });
});

describe('sessions: sandbox inbound', () => {
  it('delivers a message as WhatsApp would: a WaInboundMessage on the conversation subject, with the connection-scoped msg id', async () => {
    const c = await sandboxConnection();
    const from = phone();
    const res = await svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound`, {
      token: c.token,
      body: { from, name: 'Maria', body: 'Olá' },
    });
    expect(res.status).toBe(202);
    expect(res.body.id).toMatch(/^3EB0[0-9A-F]{16}$/);
    // answered only after JetStream stored it: readable at once
    const subject = WaSubjects.inbound(c.companyId, c.id, from);
    const stored = await lastOn<WaInboundMessage>(svc.jsm, subject);
    expect(stored.msgId).toBe(WaSubjects.inboundMsgId(c.id, res.body.id));
    expect(stored.data).toMatchObject({
      companyId: c.companyId,
      connectionId: c.id,
      waMessageId: res.body.id,
      from,
      fromName: 'Maria',
      body: 'Olá',
      mediaType: 'chat',
      fromMe: false,
      isGroup: false,
    });
    expect(Math.abs(stored.data.timestamp - Date.now())).toBeLessThan(60_000);
  });

  it('stores a replayed message once (same WhatsApp id)', async () => {
    const c = await sandboxConnection();
    const from = phone();
    const id = `3EB0${randomInt(1e12).toString(16).toUpperCase().padStart(16, '0')}`;
    for (let i = 0; i < 3; i++) {
      const res = await svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound`, {
        token: c.token,
        body: { from, name: 'João', body: 'repetida', id },
      });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ id });
    }
    const other = await svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound`, { token: c.token, body: { from, body: 'outra' } });
    expect(other.status).toBe(202);
    expect(await storedOn(svc.jsm, WaSubjects.inbound(c.companyId, c.id, from))).toBe(2);
  });

  it('delivers several messages in one call, as one upsert: each stored on its conversation, in order, ids answered in order', async () => {
    const c = await sandboxConnection();
    const [maria, joao] = [phone(), phone()];
    const replayId = `3EB0${randomInt(1e12).toString(16).toUpperCase().padStart(16, '0')}`;
    const messages = [
      { from: maria, name: 'Maria', body: 'um' },
      { from: joao, name: 'João', body: 'olá' },
      { from: maria, name: 'Maria', body: 'dois', id: replayId },
      { from: maria, name: 'Maria', body: 'três' },
    ];
    const res = await svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound/batch`, { token: c.token, body: { messages } });
    expect(res.status).toBe(202);
    expect(res.body.ids).toHaveLength(4);
    expect(res.body.ids[2]).toBe(replayId);
    expect(new Set(res.body.ids).size).toBe(4);
    const mariaSubject = WaSubjects.inbound(c.companyId, c.id, maria);
    expect(await storedOn(svc.jsm, mariaSubject)).toBe(3);
    expect(await storedOn(svc.jsm, WaSubjects.inbound(c.companyId, c.id, joao))).toBe(1);
    expect((await lastOn<WaInboundMessage>(svc.jsm, mariaSubject)).data).toMatchObject({ body: 'três', waMessageId: res.body.ids[3] });
    // a replay inside a batch stores nothing new
    const again = await svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound/batch`, {
      token: c.token,
      body: { messages: [messages[2]] },
    });
    expect(again.body.ids).toEqual([replayId]);
    expect(await storedOn(svc.jsm, mariaSubject)).toBe(3);
  });

  it('publishes the calls that come while others are being published in one turn, as one batch: each answered once its own messages are on JetStream, a conversation in order, a failing one holding back only its own', async () => {
    const c = await sandboxConnection();
    const publisher = svc.app.get(InboundPublisher);
    const upsertMany = publisher.upsertMany.bind(publisher);
    const turns: number[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const failing = phone();
    const notOnWhatsapp = svc.app.get(NotOnWhatsapp);
    const cameBack = notOnWhatsapp.cameBack.bind(notOnWhatsapp);
    publisher.upsertMany = async (s, upserts) => {
      if (s.id === c.id) {
        turns.push(upserts.length);
        if (turns.length === 1) await gate;
      }
      return upsertMany(s, upserts);
    };
    // one customer's message cannot be made ready (PostgreSQL refuses the statement that reads its number back in)
    notOnWhatsapp.cameBack = (session, number) =>
      number === failing ? Promise.reject(new Error('refused by the database')) : cameBack(session, number);
    const batches = new Collector<WaInboundBatch>(svc.nc, WaSubjects.inboundBatch(c.companyId, c.id));
    try {
      const post = (messages: Array<{ from: string; body: string }>) =>
        svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound/batch`, { token: c.token, body: { messages } });
      const maria = phone();
      const first = post([{ from: maria, body: 'um' }]);
      await waitFor(async () => turns.length === 1);
      // while the first call is being published, more come: they wait together for the next turn
      const others = Array.from({ length: 8 }, () => phone());
      const waiting = (svc.runner as unknown as { sessions: Map<number, LiveSession> }).sessions.get(c.id);
      const calls = [
        post([
          { from: maria, body: 'dois' },
          { from: maria, body: 'três' },
        ]),
        post([{ from: failing, body: 'não chega' }]),
        ...others.map((from) => post([{ from, body: 'oi' }])),
      ];
      await waitFor(async () => waiting?.waitingUpserts?.upserts.length === calls.length);
      release();
      const [one, ...rest] = await Promise.all([first, ...calls]);
      expect(turns).toEqual([1, calls.length]);
      expect(one.status).toBe(202);
      expect(rest[0].status).toBe(202);
      expect(rest[1].status).toBeGreaterThanOrEqual(500);
      for (const r of rest.slice(2)) expect(r.status).toBe(202);
      // the second turn is one batch on the stream: Maria's two and the others' in the order they came
      await batches.waitFor(() => true);
      expect(batches.items).toHaveLength(10);
      expect(new Set(batches.items.map((i) => i.batchMsgId)).size).toBe(1);
      expect(batches.items.map((i) => i.data.body)).toEqual(['dois', 'três', ...others.map(() => 'oi')]);
      // Maria's three in the order she wrote them; each other customer's message once; the refused one nowhere
      const mariaSubject = WaSubjects.inbound(c.companyId, c.id, maria);
      expect((await heldOn<WaInboundMessage>(svc.jsm, mariaSubject)).map((m) => m.data.body)).toEqual(['um', 'dois', 'três']);
      for (const from of others) expect(await storedOn(svc.jsm, WaSubjects.inbound(c.companyId, c.id, from))).toBe(1);
      expect(await storedOn(svc.jsm, WaSubjects.inbound(c.companyId, c.id, failing))).toBe(0);
    } finally {
      publisher.upsertMany = upsertMany;
      notOnWhatsapp.cameBack = cameBack;
      batches.close();
      release();
    }
  });

  it('a batch the stream refuses fails every call it carried; told again, each message is on the stream once', async () => {
    const c = await sandboxConnection();
    const publish = svc.bus.publish.bind(svc.bus);
    let refuse = true;
    svc.bus.publish = (subject, payload, opts) =>
      refuse && subject === WaSubjects.inboundBatch(c.companyId, c.id)
        ? Promise.reject(new Error('refused by the stream'))
        : publish(subject, payload, opts);
    const [ana, bia] = [phone(), phone()];
    const messages = [
      { from: ana, body: 'um' },
      { from: bia, body: 'dois' },
      { from: ana, body: 'três' },
    ];
    try {
      const refused = await svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound/batch`, { token: c.token, body: { messages } });
      expect(refused.status).toBeGreaterThanOrEqual(500);
      expect(await storedOn(svc.jsm, WaSubjects.inbound(c.companyId, c.id, ana))).toBe(0);
      refuse = false;
      const ids = ['A', 'B', 'C'].map((x) => `3EB0${x}${randomInt(1e12).toString(16).toUpperCase().padStart(15, '0')}`);
      const told = messages.map((m, i) => ({ ...m, id: ids[i] }));
      const ok = await svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound/batch`, { token: c.token, body: { messages: told } });
      expect(ok).toMatchObject({ status: 202, body: { ids } });
      // the phone hands the same messages over again, one of them twice: nothing more on the stream
      const again = await svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound/batch`, {
        token: c.token,
        body: { messages: [told[2], told[0], told[0]] },
      });
      expect(again.status).toBe(202);
      expect((await heldOn<WaInboundMessage>(svc.jsm, WaSubjects.inbound(c.companyId, c.id, ana))).map((m) => m.data.body)).toEqual([
        'um',
        'três',
      ]);
      expect(await storedOn(svc.jsm, WaSubjects.inbound(c.companyId, c.id, bia))).toBe(1);
    } finally {
      svc.bus.publish = publish;
    }
  });

  it('refuses a batch that is empty, too long, or holds one bad message, and delivers none of it', async () => {
    const c = await sandboxConnection();
    const from = phone();
    const post = (body: unknown) => svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound/batch`, { token: c.token, body });
    const many = Array.from({ length: 501 }, (_, i) => ({ from, body: `m${i}` }));
    for (const bad of [
      {},
      { messages: [] },
      { messages: 'oi' },
      { messages: many },
      {
        messages: [
          { from, body: 'boa' },
          { from, body: '  ' },
        ],
      },
      { messages: [{ from: 'x', body: 'y' }] },
    ]) {
      const res = await post(bad);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }
    expect(await storedOn(svc.jsm, WaSubjects.inbound(c.companyId, c.id, from))).toBe(0);
    expect(
      (
        await svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound/batch`, {
          token: tokenFor(c.companyId, 'user'),
          body: { messages: [{ from, body: 'x' }] },
        })
      ).status,
    ).toBe(403);
  });

  it('validates the message and refuses a session that is not connected', async () => {
    const c = await sandboxConnection();
    const post = (body: unknown) => svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound`, { token: c.token, body });
    for (const bad of [
      { from: '12345', body: 'x' },
      { from: '55119999a0001', body: 'x' },
      { from: '5511999990001', body: '' },
      { from: '5511999990001', body: '   ' },
      { from: '5511999990001' },
      { from: '5511999990001', body: 'x', id: 'a b' },
    ]) {
      const res = await post(bad);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }
    expect(
      (
        await svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound`, {
          token: tokenFor(c.companyId, 'user'),
          body: { from: '5511999990001', body: 'x' },
        })
      ).status,
    ).toBe(403);
    await svc.http.delete(`/whatsappsession/${c.id}`, { token: c.token });
    const closed = await post({ from: '5511999990001', body: 'ninguém ouve' });
    expect(closed.status).toBe(400);
    expect(closed.body.error).toBe('ERR_WAPP_NOT_INITIALIZED');
    const box = await svc.http.get(`/whatsappsession/${c.id}/sandbox/outbox`, { token: c.token });
    expect(box.body.error).toBe('ERR_WAPP_NOT_INITIALIZED');
  });
});

describe('sessions: number check (asked by tickets for a contact)', () => {
  it("answers through the session's holder whether a number is on WhatsApp: the sandbox knows 12–13 digit numbers", async () => {
    const c = await sandboxConnection();
    const ask = (number: string) =>
      request<{ ok: boolean; result?: unknown; code?: string }>(
        svc.bus,
        sessionCommandSubject(c.id),
        { action: 'check', number },
        { timeoutMs: 5000 },
      );
    expect(await ask('5511987654321')).toEqual({ ok: true, result: { exists: true, jid: '5511987654321@s.whatsapp.net' } });
    expect(await ask('551133334444')).toEqual({ ok: true, result: { exists: true, jid: '551133334444@s.whatsapp.net' } });
    expect(await ask('14155552671')).toEqual({ ok: true, result: { exists: false, jid: null } });
    expect(await ask('abc')).toEqual({ ok: false, code: 'ERR_WAPP_INVALID_CONTACT' });
    // nobody holds an ended session: nobody answers
    await svc.http.delete(`/whatsappsession/${c.id}`, { token: c.token });
    await expect(ask('5511987654321')).rejects.toBeInstanceOf(NoRespondersError);
  });
});

describe('sessions: outbound', () => {
  it('sends what tickets publish, shows it in the outbox and raises its ack to delivered and read, publishing each ack', async () => {
    const c = await sandboxConnection();
    const to = phone();
    const acks = new Collector<WaAcks>(svc.nc, `wa.ack.${c.companyId}.${c.id}.>`);
    try {
      const send = outboundSend(c, to, 'Seu pedido saiu para entrega');
      await svc.bus.publish(WaSubjects.outbound(c.id), send, { msgId: WaSubjects.outboundMsgId(send.waMessageId) });
      const delivered = await waitFor(async () =>
        (await outbox(c.token, c.id)).items.find((i) => i.waMessageId === send.waMessageId && i.ack >= 3),
      );
      expect(delivered).toMatchObject({ waMessageId: send.waMessageId, to, body: 'Seu pedido saiu para entrega' });
      await waitFor(async () => (await outbox(c.token, c.id)).items.find((i) => i.waMessageId === send.waMessageId && i.ack === 4));
      // each status in an event of the connection's acks, with what came along (here nothing)
      for (const ack of [1, 2, 3, 4]) {
        const e = await acks.waitFor((a) => a.data.acks.some((x) => x.waMessageId === send.waMessageId && x.ack === ack));
        expect(e.subject).toBe(WaSubjects.acks(c.companyId, c.id));
        expect(e.msgId).toMatch(new RegExp(`^${c.id}:acks:[0-9a-f]{40}$`));
        expect(e.data).toEqual({
          companyId: c.companyId,
          connectionId: c.id,
          at: expect.any(Number),
          acks: [{ waMessageId: send.waMessageId, ack }],
        });
      }
      // no echo of our own message comes back as inbound
      expect(await storedOn(svc.jsm, WaSubjects.inbound(c.companyId, c.id, to))).toBe(0);
    } finally {
      acks.close();
    }
  });

  it('does not send twice when the same send is delivered again (a redelivery after a crash)', async () => {
    const c = await sandboxConnection();
    const to = phone();
    const send = outboundSend(c, to, 'só uma vez');
    await svc.bus.publish(WaSubjects.outbound(c.id), send, { msgId: WaSubjects.outboundMsgId(send.waMessageId) });
    await waitFor(async () => (await outbox(c.token, c.id)).items.length === 1);
    // the same send under another msg id, as a redelivery would arrive, and a different send after it
    const again = await svc.bus.publish(WaSubjects.outbound(c.id), send, { msgId: `redelivery:${send.waMessageId}` });
    expect(again.duplicate).toBe(false);
    const other = outboundSend(c, to, 'outra mensagem');
    const last = await svc.bus.publish(WaSubjects.outbound(c.id), other, { msgId: WaSubjects.outboundMsgId(other.waMessageId) });
    await outboundDrained(c.id, last.seq);
    const items = (await outbox(c.token, c.id)).items;
    expect(items.map((i) => i.body)).toEqual(['outra mensagem', 'só uma vez']);
  });

  it("sends other chats' messages, in their order, while a send the phone refuses is being retried: it holds back only its own chat's lane", async () => {
    const c = await sandboxConnection();
    const acks = new Collector<WaAck>(svc.nc, `wa.ack.${c.companyId}.${c.id}.>`);
    try {
      // ten digits: not on the sandbox's WhatsApp, so the phone refuses it
      const refused = '5511912345';
      let to = phone();
      while (laneOf(to, svc.env.OUTBOUND_LANES) === laneOf(refused, svc.env.OUTBOUND_LANES)) to = phone();
      const stuck = outboundSend(c, refused, 'não vai');
      await svc.bus.publish(WaSubjects.outbound(c.id), stuck, { msgId: WaSubjects.outboundMsgId(stuck.waMessageId) });
      for (const body of ['um', 'dois', 'três']) {
        const send = outboundSend(c, to, body);
        await svc.bus.publish(WaSubjects.outbound(c.id), send, { msgId: WaSubjects.outboundMsgId(send.waMessageId) });
      }
      // one lane for the connection kept these behind the refused send until it was given up
      const out = await waitFor(async () => {
        const items = (await outbox(c.token, c.id)).items;
        return items.length >= 3 ? items : undefined;
      });
      expect(out.map((i) => [i.to, i.body])).toEqual([
        [to, 'três'],
        [to, 'dois'],
        [to, 'um'],
      ]);
      // not on WhatsApp is a final answer: the refused send is failed at once, never put on the wire
      expect((await acks.waitFor((a) => a.data.waMessageId === stuck.waMessageId && !!a.data.failed)).data.failed).toMatch(
        /^ERR_WAPP_INVALID_CONTACT/,
      );
      expect(out.some((i) => i.to === refused)).toBe(false);
    } finally {
      acks.close();
    }
  });

  it('keeps sends published while the session is down and sends them once it is up again', async () => {
    const c = await sandboxConnection();
    await svc.http.delete(`/whatsappsession/${c.id}`, { token: c.token });
    const send = outboundSend(c, phone(), 'enviada depois');
    await svc.bus.publish(WaSubjects.outbound(c.id), send, { msgId: WaSubjects.outboundMsgId(send.waMessageId) });
    await new Promise((r) => setTimeout(r, 500));
    expect((await svc.db.query(`SELECT count(*)::int AS n FROM whatsapp.sandbox_outbox WHERE "connectionId" = $1`, [c.id]))[0].n).toBe(0);
    await svc.http.post(`/whatsappsession/${c.id}`, { token: c.token });
    const item = await waitFor(async () => (await outbox(c.token, c.id)).items[0]);
    expect(item).toMatchObject({ waMessageId: send.waMessageId, body: 'enviada depois' });
  });

  it('pages the outbox newest first', async () => {
    const c = await sandboxConnection();
    let seq = 0;
    // one chat: its sends leave in their order (different chats may go side by side)
    const to = phone();
    for (let i = 1; i <= 22; i++) {
      const send = outboundSend(c, to, `mensagem ${i}`);
      seq = (await svc.bus.publish(WaSubjects.outbound(c.id), send, { msgId: WaSubjects.outboundMsgId(send.waMessageId) })).seq;
    }
    await outboundDrained(c.id, seq);
    const p1 = await outbox(c.token, c.id, 1);
    expect(p1.items).toHaveLength(20);
    expect(p1.hasMore).toBe(true);
    expect(p1.items[0]!.body).toBe('mensagem 22');
    const p2 = await outbox(c.token, c.id, 2);
    expect(p2.items.map((i) => i.body)).toEqual(['mensagem 2', 'mensagem 1']);
    expect(p2.hasMore).toBe(false);
    expect((await svc.http.get(`/whatsappsession/${c.id}/sandbox/outbox?pageNumber=0`, { token: c.token })).status).toBe(400);
  });
});
