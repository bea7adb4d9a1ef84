import { randomInt } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { WaSubjects, type SandboxOutboxItem, type WaAck, type WaOutboundSend } from '@wa/contracts';
import { Collector, createConnection, sessionsSuite, tokenFor, waitForStatus, type SessionsUnderTest } from './harness.js';

let svc: SessionsUnderTest;
const { companies, created } = sessionsSuite(2, (s) => (svc = s));

const phone = () => `55119${String(randomInt(10_000_000, 99_999_999))}`;
const wid = () => `3EB0${randomInt(1e9).toString(16).toUpperCase()}${Date.now().toString(16).toUpperCase()}`;

describe('sessions: a send to a number not on WhatsApp', () => {
  it('fails at once with ERR_WAPP_INVALID_CONTACT, holds no other chat, and the next send to it fails without asking the phone', async () => {
    const companyId = companies[0]!;
    const token = tokenFor(companyId);
    const c = await createConnection(svc, token, { name: 'Sandbox', channel: 'sandbox' });
    created.push({ id: c.id, token });
    await waitForStatus(svc, token, c.id, 'CONNECTED');
    const gone = phone();
    const other = phone();
    expect((await svc.http.post(`/whatsappsession/${c.id}/sandbox/leave`, { token, body: { number: gone } })).status).toBe(200);
    const acks = new Collector<WaAck>(svc.nc, `wa.ack.${companyId}.${c.id}.>`);
    const send = (to: string, body: string): WaOutboundSend => ({
      companyId,
      connectionId: c.id,
      waMessageId: wid(),
      to,
      body,
      ticketId: 1,
      messageId: randomInt(1e6),
    });
    try {
      const first = send(gone, 'Olá?');
      const reply = send(other, 'Resposta a outro cliente');
      const started = Date.now();
      // the refused one first, in the same batch as another chat's reply
      await svc.bus.publish(WaSubjects.outbound(c.id), first, { msgId: WaSubjects.outboundMsgId(first.waMessageId) });
      await svc.bus.publish(WaSubjects.outbound(c.id), reply, { msgId: WaSubjects.outboundMsgId(reply.waMessageId) });
      const failed = await acks.waitFor((a) => a.data.waMessageId === first.waMessageId && !!a.data.failed, 5_000);
      expect(failed.data).toMatchObject({ ack: 0 });
      expect(failed.data.failed).toMatch(/^ERR_WAPP_INVALID_CONTACT/);
      const box = async () => (await svc.http.get(`/whatsappsession/${c.id}/sandbox/outbox`, { token })).body.items as SandboxOutboxItem[];
      const deadline = Date.now() + 5_000;
      while (!(await box()).some((i) => i.waMessageId === reply.waMessageId) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      expect((await box()).map((i) => i.waMessageId)).toContain(reply.waMessageId);
      // well before the first retry's back-off would have let it through
      expect(Date.now() - started).toBeLessThan(3_000);
      expect((await box()).some((i) => i.to === gone)).toBe(false);

      // the next send to that number: failed at once, the phone not asked again
      const provider = svc.runner['sessions'].get(c.id)!.provider as { checkNumber(n: string): Promise<unknown> };
      let asked = 0;
      const check = provider.checkNumber.bind(provider);
      provider.checkNumber = (n: string) => {
        asked++;
        return check(n);
      };
      const second = send(gone, 'De novo?');
      await svc.bus.publish(WaSubjects.outbound(c.id), second, { msgId: WaSubjects.outboundMsgId(second.waMessageId) });
      expect((await acks.waitFor((a) => a.data.waMessageId === second.waMessageId && !!a.data.failed, 3_000)).data.failed).toMatch(
        /^ERR_WAPP_INVALID_CONTACT/,
      );
      expect(asked).toBe(0);
    } finally {
      acks.close();
    }
  });
});
