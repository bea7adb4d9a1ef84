import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  sessionCommandSubject,
  Streams,
  WaSubjects,
  type CallRejectCommand,
  type WaCall,
  type WaLidMapped,
  type WaOutboundSend,
  type WhatsappDto,
} from '@wa/contracts';
import { DEFAULT_TIME_ZONE } from '@wa/domain';
import { waitFor } from '@wa/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import { randomBytes, randomInt } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Msg, Subscription } from 'nats';
import { CALLS_DISABLED_MESSAGE, missedCallLine } from '../../src/calls/missed-calls.js';
import { randomNumber, startTickets, TestCompany, ticketOfNumber, type TicketsUnderTest } from './harness.js';

/**
 * The `call` setting (spec 02 §3; issue 42 §8): while a company's setting is 'disabled', a customer's call is
 * rejected by the session's holder (a real NATS responder here stands in for whatsapp-sessions), the customer gets
 * the company's message and the conversation the missed-call line, once per call however often the event comes;
 * 'enabled' (the default) lets the phone ring and tickets does nothing.
 */

let t: TicketsUnderTest;

beforeAll(async () => {
  t = await startTickets();
});

afterAll(async () => {
  await t?.close();
});

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The holder of a connection's session, as far as tickets can tell: answers its commands on the command subject (records the rejections). */
function sessionHolder(connectionId: number, answer: (cmd: CallRejectCommand) => unknown = () => ({ ok: true })) {
  const asked: CallRejectCommand[] = [];
  const sub: Subscription = t.bus.connection.subscribe(sessionCommandSubject(connectionId), {
    callback: (err, msg: Msg) => {
      if (err) return;
      const cmd = JSON.parse(decoder.decode(msg.data)) as CallRejectCommand | { action: string };
      // tickets asks a session other things too (a new contact's profile picture): only rejections are the calls'
      if (cmd.action !== 'rejectCall') {
        msg.respond(encoder.encode(JSON.stringify({ ok: true, result: { url: null } })));
        return;
      }
      asked.push(cmd as CallRejectCommand);
      msg.respond(encoder.encode(JSON.stringify(answer(cmd as CallRejectCommand))));
    },
  });
  return { asked, stop: () => sub.unsubscribe() };
}

/** What tickets published for the connection's session to send. */
function sendsOf(connectionId: number) {
  const sends: WaOutboundSend[] = [];
  const sub = t.bus.connection.subscribe(WaSubjects.outbound(connectionId), {
    callback: (err, msg) => {
      if (!err) sends.push(JSON.parse(decoder.decode(msg.data)) as WaOutboundSend);
    },
  });
  return { sends, stop: () => sub.unsubscribe() };
}

/** A call offered to the connection's phone, as whatsapp-sessions publishes it; `again`: the same call published once more. */
async function call(c: TestCompany, conn: WhatsappDto, from: string, fields: Partial<WaCall> = {}, again = false): Promise<WaCall> {
  const event: WaCall = {
    companyId: c.companyId,
    connectionId: conn.id,
    callId: randomBytes(16).toString('hex').toUpperCase(),
    from,
    isVideo: false,
    isGroup: false,
    at: Math.floor(Date.now() / 1000) * 1000 - 30_000,
    ...fields,
  };
  await publish(event);
  if (again) await publish(event, ':again');
  return event;
}

/** `suffix`: another msg id, as a repeat the bus no longer recognises (a redelivery, a publish past the window). */
async function publish(event: WaCall, suffix = ''): Promise<void> {
  await t.bus.publish(WaSubjects.call(event.companyId, event.connectionId, event.from), event, {
    msgId: `${WaSubjects.callMsgId(event.connectionId, event.callId)}${suffix}`,
  });
}

/** Until tickets' calls consumer has handled and acked everything published to it. */
async function callsHandled(): Promise<void> {
  const jsm = await t.bus.connection.jetstreamManager();
  await waitFor(async () => {
    const info = await jsm.consumers.info(Streams.WA.name, 'tickets-calls');
    return info.num_pending === 0 && info.num_ack_pending === 0;
  });
}

async function messagesOf(
  token: string,
  ticketId: number,
): Promise<Array<{ body: string; fromMe: boolean; mediaType: string; ack: number }>> {
  const page = await t.http.get(`/messages/${ticketId}`, { token });
  expect(page.status).toBe(200);
  return page.body.messages;
}

describe("calls and the company's `call` setting", () => {
  it('rejects the call when disabled, sends the message once and stores the missed-call line, even when the call comes twice', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const conn = await c.connection();
    await c.settingKept('call', 'disabled');
    const holder = sessionHolder(conn.id);
    const out = sendsOf(conn.id);
    try {
      const caller = randomNumber();
      const event = await call(c, conn, caller, {}, true);
      const ticket = await waitFor(async () => {
        const found = await ticketOfNumber(t, admin.token, caller);
        return found?.lastMessage === CALLS_DISABLED_MESSAGE ? found : undefined;
      });
      await callsHandled();
      await waitFor(async () => out.sends.length > 0);

      expect(holder.asked).toEqual([{ action: 'rejectCall', callId: event.callId, from: caller }]);
      expect(ticket).toMatchObject({ status: 'pending', isGroup: false, contact: { number: caller } });
      const line = missedCallLine(new Date(event.at), DEFAULT_TIME_ZONE);
      expect(line).toMatch(/^Chamada de voz\/vídeo perdida às \d{2}:\d{2}$/);
      expect(await messagesOf(admin.token, ticket.id)).toEqual([
        expect.objectContaining({ body: line, fromMe: false, mediaType: 'call_log' }),
        expect.objectContaining({ body: CALLS_DISABLED_MESSAGE, fromMe: true, mediaType: 'chat', ack: 0 }),
      ]);
      expect(out.sends).toEqual([expect.objectContaining({ to: caller, body: CALLS_DISABLED_MESSAGE, ticketId: ticket.id })]);

      // the contact calls again later: the same conversation, in the order of WhatsApp's clock (the line at the call's time)
      const second = await call(c, conn, caller, { at: Date.now() + 1 });
      await waitFor(async () => holder.asked.length === 2 && out.sends.length === 2);
      await callsHandled();
      const again = await ticketOfNumber(t, admin.token, caller);
      expect(again.id).toBe(ticket.id);
      expect((await messagesOf(admin.token, ticket.id)).map((m) => m.body)).toEqual([
        line,
        CALLS_DISABLED_MESSAGE,
        missedCallLine(new Date(second.at), DEFAULT_TIME_ZONE),
        CALLS_DISABLED_MESSAGE,
      ]);
    } finally {
      holder.stop();
      out.stop();
    }
  });

  it('does nothing while enabled (the default), nor for a group call', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const conn = await c.connection();
    const holder = sessionHolder(conn.id);
    const out = sendsOf(conn.id);
    try {
      // no copy of the setting yet: the default, enabled
      const first = randomNumber();
      await call(c, conn, first);
      await callsHandled();
      await c.settingKept('call', 'enabled');
      const second = randomNumber();
      await call(c, conn, second, { isVideo: true });
      await callsHandled();
      // disabled, but a group call: left to ring, as the product does
      await c.settingKept('call', 'disabled');
      const member = randomNumber();
      await call(c, conn, member, { isGroup: true });
      await callsHandled();

      expect(holder.asked).toEqual([]);
      expect(out.sends).toEqual([]);
      for (const number of [first, second, member]) {
        const listed = await t.http.get(`/tickets?showAll=true&searchParam=${number}`, { token: admin.token });
        expect(listed.body.tickets).toEqual([]);
      }
    } finally {
      holder.stop();
      out.stop();
    }
  });

  it('acks a call the session cannot reject (refused, or no session holds the connection) and sends nothing', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const conn = await c.connection();
    const gone = await c.connection({ isDefault: false });
    await c.settingKept('call', 'disabled');
    const holder = sessionHolder(conn.id, () => ({ ok: false, code: 'ERR_WAPP_NOT_INITIALIZED' }));
    const out = sendsOf(conn.id);
    const outGone = sendsOf(gone.id);
    try {
      const refused = randomNumber();
      await call(c, conn, refused);
      // nobody answers the other connection's commands: its session is gone
      const unanswered = randomNumber();
      await call(c, gone, unanswered);
      await waitFor(async () => holder.asked.length === 1);
      await callsHandled();

      expect(out.sends).toEqual([]);
      expect(outGone.sends).toEqual([]);
      for (const number of [refused, unanswered]) {
        const listed = await t.http.get(`/tickets?showAll=true&searchParam=${number}`, { token: admin.token });
        expect(listed.body.tickets).toEqual([]);
      }
      // acked, not retried: the holder was asked once
      expect(holder.asked).toHaveLength(1);
    } finally {
      holder.stop();
      out.stop();
      outGone.stop();
    }
  });

  it("puts a bare-LID caller whose number is known into that contact's conversation, and sends to the number", async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const conn = await c.connection();
    await c.settingKept('call', 'disabled');
    const number = randomNumber();
    const lid = `${randomInt(100_000_000, 999_999_999)}${randomInt(100_000, 999_999)}`;
    await c.inbound(conn.id, number, 'oi, sou eu');
    const ticket = await ticketOfNumber(t, admin.token, number);
    // WhatsApp tells which number the LID stands for: the number's contact learns its LID
    const mapped: WaLidMapped = { companyId: c.companyId, lid, pn: number, at: Date.now() };
    await t.bus.publish(WaSubjects.lidMapped(c.companyId), mapped, { msgId: `calls-test:${lid}` });
    const db = t.app.get(getDataSourceToken()) as DataSource;
    await waitFor(async () => {
      const rows: Array<{ lid: string | null }> = await db.query(
        `SELECT lid FROM tickets.contacts WHERE "companyId" = $1 AND number = $2`,
        [c.companyId, number],
      );
      return rows[0]?.lid === lid;
    });
    const holder = sessionHolder(conn.id);
    const out = sendsOf(conn.id);
    try {
      const bare = `${lid}@lid`;
      const event = await call(c, conn, bare, { at: Date.now() + 1 });
      await waitFor(async () => out.sends.length > 0);
      await callsHandled();
      // rejected as whatsapp-sessions named the caller; written and answered as the contact it is
      expect(holder.asked).toEqual([{ action: 'rejectCall', callId: event.callId, from: bare }]);
      expect(out.sends).toEqual([expect.objectContaining({ to: number, ticketId: ticket.id, body: CALLS_DISABLED_MESSAGE })]);
      expect((await messagesOf(admin.token, ticket.id)).map((m) => m.body)).toEqual([
        'oi, sou eu',
        missedCallLine(new Date(event.at), DEFAULT_TIME_ZONE),
        CALLS_DISABLED_MESSAGE,
      ]);
      const contacts: Array<{ n: number }> = await db.query(`SELECT count(*)::int AS n FROM tickets.contacts WHERE "companyId" = $1`, [
        c.companyId,
      ]);
      expect(contacts[0]?.n).toBe(1);
    } finally {
      holder.stop();
      out.stop();
    }
  });
});
