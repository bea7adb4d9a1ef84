import { randomInt } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import { WaSubjects, type WaAck, type WaOutboundSend } from '@wa/contracts';
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
 * Issue 38 item 13: a send's count of tries is JetStream's delivery count, so a restart of whatsapp-sessions
 * does not start its tries again (it lived in a map in memory: a send failing for good was retried forever
 * on a service restarting often).
 */
const companies = companyPool(1);
const MAX = 3;
let svc: SessionsUnderTest | undefined;
const created: Array<{ id: number; token: string }> = [];
const original = SandboxProvider.prototype.sendMessage;

afterAll(async () => {
  SandboxProvider.prototype.sendMessage = original;
  if (svc) await cleanup(svc, created);
  await svc?.close();
}, 60_000);

describe('sessions: a send that keeps failing, across a restart', () => {
  it(`is given up (its message marked failed) after ${MAX} tries in all, the restart included`, async () => {
    const env = { OUTBOUND_MAX_ATTEMPTS: String(MAX) };
    svc = await startSessions(companies, env);
    const companyId = companies[0]!;
    const token = tokenFor(companyId);
    const c = await createConnection(svc, token, { name: 'Sandbox', channel: 'sandbox' });
    created.push({ id: c.id, token });
    await waitForStatus(svc, token, c.id, 'CONNECTED');
    const to = `55119${String(randomInt(10_000_000, 99_999_999))}`;
    const send: WaOutboundSend = {
      companyId,
      connectionId: c.id,
      waMessageId: `3EB0${randomInt(1e9).toString(16).toUpperCase()}${Date.now().toString(16).toUpperCase()}`,
      to,
      body: 'Olá',
      ticketId: 1,
      messageId: randomInt(1e6),
    };
    // the phone refuses this chat's sends (not "not on WhatsApp": an error a later try might not meet), in every process here
    const tries: number[] = [];
    SandboxProvider.prototype.sendMessage = async function (to, content, options) {
      if (options.messageId === send.waMessageId) {
        tries.push(Date.now());
        throw new Error('the phone did not answer');
      }
      return original.call(this, to, content, options);
    };
    await svc.bus.publish(WaSubjects.outbound(c.id), send, { msgId: WaSubjects.outboundMsgId(send.waMessageId) });
    await waitFor(async () => tries.length >= 1 || undefined, { timeoutMs: 10_000 });

    // restarted after its first try
    await svc.close();
    svc = await startSessions(companies, env);
    const acks = new Collector<WaAck>(svc.nc, `wa.ack.${companyId}.${c.id}.>`);
    try {
      const failed = await acks.waitFor((a) => a.data.waMessageId === send.waMessageId && !!a.data.failed, 30_000);
      expect(failed.data.failed).toContain('the phone did not answer');
      // nothing more after it was given up
      await new Promise((r) => setTimeout(r, 2_000));
      expect(tries.length).toBe(MAX);
    } finally {
      acks.close();
    }
  }, 90_000);
});
