import { randomInt } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { WaSubjects, type WaInboundMessage } from '@wa/contracts';
import { waitFor } from '@wa/testing';
import { createConnection, lastOn, sessionsSuite, storedOn, tokenFor, type SessionsUnderTest } from './harness.js';

/**
 * Undecryptable messages (issue 42 §1, §5) through the sandbox: `undecryptable: true` is what Baileys emits for a
 * message it could not decrypt (published waiting), a later inbound with the same id and a body is the phone's
 * resend (published replacing it, under a msg id of its own, so the bus does not drop it as a repeat).
 */

let svc: SessionsUnderTest;
const { companies, created } = sessionsSuite(1, (s) => (svc = s));

const messagesOn = async (subject: string): Promise<Array<{ data: WaInboundMessage; msgId: string | undefined }>> => {
  const count = await storedOn(svc.jsm, subject);
  const last = await lastOn<WaInboundMessage>(svc.jsm, subject);
  const out: Array<{ data: WaInboundMessage; msgId: string | undefined }> = [];
  for (let seq = last.seq; out.length < count && seq > 0; seq--) {
    const m = await svc.jsm.streams.getMessage('WA', { seq }).catch(() => null);
    if (m?.subject === subject) out.unshift({ data: m.json<WaInboundMessage>(), msgId: m.header?.get('Nats-Msg-Id') });
  }
  return out;
};

describe('sessions: an undecryptable message through the sandbox, then its resend', () => {
  it('publishes it waiting (ciphertext, no body), then the resend with the same id replacing it; replays of either are dropped', async () => {
    const companyId = companies[0]!;
    const token = tokenFor(companyId);
    const c = await createConnection(svc, token, { name: 'Sandbox' });
    created.push({ id: c.id, token });
    const from = `55119${randomInt(10_000_000, 99_999_999)}`;
    const id = `3EB0UNDEC${randomInt(1e9)}`;
    const subject = WaSubjects.inbound(companyId, c.id, from);

    const waiting = await svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound`, {
      token,
      body: { from, name: 'Maria', id, undecryptable: true },
    });
    expect(waiting.status).toBe(202);
    expect(waiting.body).toEqual({ id });
    // its repeat (Baileys emits the stub again when a retry fails too) is the same event
    expect(
      (await svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound`, { token, body: { from, id, undecryptable: true } })).status,
    ).toBe(202);

    const resent = await svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound`, {
      token,
      body: { from, name: 'Maria', id, body: 'o pedido 42' },
    });
    expect(resent.status).toBe(202);
    expect(resent.body).toEqual({ id });
    // the resend delivered again is dropped as a repeat
    await svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound`, { token, body: { from, id, body: 'o pedido 42' } });

    await waitFor(async () => (await storedOn(svc.jsm, subject)) >= 2, { timeoutMs: 10_000 });
    const events = await messagesOn(subject);
    expect(events).toHaveLength(2);
    expect(events[0]!.msgId).toBe(WaSubjects.inboundMsgId(c.id, id));
    expect(events[0]!.data).toMatchObject({
      companyId,
      connectionId: c.id,
      waMessageId: id,
      from,
      fromName: 'Maria',
      body: '',
      mediaType: 'ciphertext',
      resend: 'waiting',
      fromMe: false,
      isGroup: false,
    });
    expect(events[1]!.msgId).toBe(WaSubjects.resentMsgId(c.id, id));
    expect(events[1]!.data).toMatchObject({ waMessageId: id, from, body: 'o pedido 42', mediaType: 'chat', resend: 'replaces' });

    // the connection remembers what it published waiting (a session that moves or restarts still knows)
    const kept = await svc.db.query(`SELECT wa_message_id FROM whatsapp.undecryptable_messages WHERE connection_id = $1`, [c.id]);
    expect(kept).toEqual([{ wa_message_id: id }]);

    // any other message is published as always, and an undecryptable one needs no body but is a 400 without a sender
    const other = await svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound`, { token, body: { from, body: 'outra' } });
    expect(other.status).toBe(202);
    const last = await lastOn<WaInboundMessage>(svc.jsm, subject);
    expect(last.msgId).toBe(WaSubjects.inboundMsgId(c.id, other.body.id));
    expect(last.data.resend ?? null).toBeNull();
    expect((await svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound`, { token, body: { undecryptable: 'yes', from } })).status).toBe(
      400,
    );
  });
});
