import { randomInt } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import { WaSubjects, type SandboxOutboxItem, type WaAck, type WaOutboundSend } from '@wa/contracts';
import { waitFor } from '@wa/testing';
import { SandboxProvider } from '../../src/runtime/providers/sandbox/sandbox.provider.js';
import {
  Collector,
  cleanup,
  companyPool,
  createConnection,
  startSessions,
  tokenFor,
  waitForStatus,
  type SessionsUnderTest,
} from './harness.js';

/**
 * Issue 38 item 13: the numbers WhatsApp refused as not on it are remembered across a restart of
 * whatsapp-sessions (whatsapp.not_on_whatsapp, 6 h), so a send to one fails at once without asking the phone;
 * a message from the number (it is back on WhatsApp) forgets it.
 */
const companies = companyPool(1);
let svc: SessionsUnderTest | undefined;
const created: Array<{ id: number; token: string }> = [];
const original = { sendMessage: SandboxProvider.prototype.sendMessage, checkNumber: SandboxProvider.prototype.checkNumber };

afterAll(async () => {
  Object.assign(SandboxProvider.prototype, original);
  if (svc) await cleanup(svc, created);
  await svc?.close();
}, 60_000);

const phone = () => `55119${String(randomInt(10_000_000, 99_999_999))}`;
const wid = () => `3EB0${randomInt(1e9).toString(16).toUpperCase()}${Date.now().toString(16).toUpperCase()}`;

describe('sessions: a number not on WhatsApp, across a restart', () => {
  it('after a restart a send to a number that left fails at once without asking the phone; after a message from it, a send goes through', async () => {
    svc = await startSessions(companies);
    const companyId = companies[0]!;
    const token = tokenFor(companyId);
    const c = await createConnection(svc, token, { name: 'Sandbox', channel: 'sandbox' });
    created.push({ id: c.id, token });
    await waitForStatus(svc, token, c.id, 'CONNECTED');
    const send = (to: string, body: string): WaOutboundSend => ({
      companyId,
      connectionId: c.id,
      waMessageId: wid(),
      to,
      body,
      ticketId: 1,
      messageId: randomInt(1e6),
    });
    const publish = (m: WaOutboundSend) =>
      svc!.bus.publish(WaSubjects.outbound(c.id), m, { msgId: WaSubjects.outboundMsgId(m.waMessageId) });
    const box = async () => (await svc!.http.get(`/whatsappsession/${c.id}/sandbox/outbox`, { token })).body.items as SandboxOutboxItem[];
    const gone = phone();
    // refused 7 hours ago: past the 6 h WhatsApp's answer is taken for, so asked again
    const long = phone();
    await svc.db.query(
      `INSERT INTO whatsapp.not_on_whatsapp (connection_id, number, refused_at) VALUES ($1, $2, now() - interval '7 hours')`,
      [c.id, long],
    );

    // the customer leaves WhatsApp; the phone refuses the send
    expect((await svc.http.post(`/whatsappsession/${c.id}/sandbox/leave`, { token, body: { number: gone } })).status).toBe(200);
    let acks = new Collector<WaAck>(svc.nc, `wa.ack.${companyId}.${c.id}.>`);
    const first = send(gone, 'Olá?');
    try {
      await publish(first);
      expect((await acks.waitFor((a) => a.data.waMessageId === first.waMessageId && !!a.data.failed, 5_000)).data.failed).toMatch(
        /^ERR_WAPP_INVALID_CONTACT/,
      );
    } finally {
      acks.close();
    }

    // whatsapp-sessions restarts; the new phone remembers nothing of who left (as a real phone would have to ask WhatsApp again)
    await svc.close();
    const asked: string[] = [];
    SandboxProvider.prototype.sendMessage = async function (to, content, options) {
      asked.push(to.id);
      return original.sendMessage.call(this, to, content, options);
    };
    SandboxProvider.prototype.checkNumber = async function (number) {
      asked.push(number);
      return original.checkNumber.call(this, number);
    };
    svc = await startSessions(companies);
    await waitFor(async () => svc!.runner.isRunning(c.id) || undefined, { timeoutMs: 15_000 });
    acks = new Collector<WaAck>(svc.nc, `wa.ack.${companyId}.${c.id}.>`);
    try {
      const again = send(gone, 'De novo?');
      const old = send(long, 'Faz tempo');
      await publish(again);
      await publish(old);
      expect((await acks.waitFor((a) => a.data.waMessageId === again.waMessageId && !!a.data.failed, 10_000)).data.failed).toMatch(
        /^ERR_WAPP_INVALID_CONTACT/,
      );
      // the phone was not asked: the refusal came from what was remembered
      expect(asked.filter((a) => a.startsWith(gone))).toEqual([]);
      // the one refused past 6 h was asked again, and went out
      await waitFor(async () => (await box()).some((i) => i.waMessageId === old.waMessageId) || undefined, { timeoutMs: 5_000 });
      expect((await box()).some((i) => i.to === gone)).toBe(false);

      // the customer writes again: back on WhatsApp, the next send goes through
      const hello = await svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound`, { token, body: { from: gone, body: 'Voltei' } });
      expect(hello.status).toBe(202);
      const reply = send(gone, 'Bem-vindo de volta');
      await publish(reply);
      await waitFor(async () => (await box()).some((i) => i.waMessageId === reply.waMessageId) || undefined, { timeoutMs: 5_000 });
      expect(acks.items.some((a) => a.data.waMessageId === reply.waMessageId && !!a.data.failed)).toBe(false);
      // forgotten in the table too: a later restart does not refuse it
      expect(await svc.db.query(`SELECT number FROM whatsapp.not_on_whatsapp WHERE connection_id = $1`, [c.id])).toEqual([]);
    } finally {
      acks.close();
    }
  }, 90_000);
});
