import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { WaSubjects, type WaInboundMessage } from '@wa/contracts';
import { waitFor } from '@wa/testing';
import { randomUUID } from 'node:crypto';
import { randomNumber, startTickets, TestCompany, ticketOfNumber, type TicketsUnderTest } from './harness.js';

/**
 * The offline backlog (issue 42 §4) as tickets stores it: what a customer wrote while the phone was offline arrives
 * after the reconnect (whatsapp-sessions publishes it then, each message with WhatsApp's time of writing), possibly
 * after a message written later; it is stored once, in the order written, with its own times, and the ticket's last
 * message is the newest written, not the last to arrive.
 */

let t: TicketsUnderTest;

beforeAll(async () => {
  t = await startTickets();
});

afterAll(async () => {
  await t?.close();
});

/** A message as whatsapp-sessions publishes it, written at `writtenAt` (WhatsApp's clock: whole seconds). */
async function publish(c: TestCompany, connectionId: number, from: string, body: string, writtenAt: number, id?: string): Promise<string> {
  const msg: WaInboundMessage = {
    companyId: c.companyId,
    connectionId,
    waMessageId: id ?? `3A${randomUUID().replace(/-/g, '').slice(0, 18).toUpperCase()}`,
    from,
    fromName: 'Maria',
    body,
    mediaType: 'chat',
    fromMe: false,
    isGroup: false,
    timestamp: writtenAt,
  };
  // a message id of its own: a redelivery past JetStream's duplicate window (another process handing it over again)
  await t.bus.publish(WaSubjects.inbound(c.companyId, connectionId, from), msg, {
    msgId: `${WaSubjects.inboundMsgId(connectionId, msg.waMessageId)}:${randomUUID()}`,
  });
  return msg.waMessageId;
}

describe('the offline backlog in tickets', () => {
  it('stores what was written offline once each, in the order written and with its own times, around a message written later that arrived first', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const conn = await c.connection();
    const from = randomNumber();
    const now = Math.floor(Date.now() / 1000) * 1000;

    // written before the outage, delivered live
    await publish(c, conn.id, from, 'bom dia', now - 300_000);
    const ticket = await ticketOfNumber(t, admin.token, from);
    // written after the reconnect, but it arrives before the backlog is handed over
    await publish(c, conn.id, from, 'alguém?', now);
    // the backlog: two messages of the same second (their order is the order handed over), one a minute later
    const first = await publish(c, conn.id, from, 'um', now - 120_000);
    await publish(c, conn.id, from, 'dois', now - 120_000);
    // handed over once more (WhatsApp had no ack of it): the same message, handled before the next one (one lane per conversation)
    await publish(c, conn.id, from, 'um', now - 120_000, first);
    await publish(c, conn.id, from, 'três', now - 60_000);

    // the last one handed over ('três') is stored: the ticket counts each message once, its last one the newest written
    const stored = await waitFor(
      async () => {
        const row = (await t.http.get(`/tickets/${ticket.id}`, { token: admin.token })).body;
        return row.unreadMessages >= 5 ? row : undefined;
      },
      { timeoutMs: 15_000 },
    );
    expect(stored).toMatchObject({ lastMessage: 'alguém?', unreadMessages: 5 });
    const listed = (await t.http.get(`/messages/${ticket.id}`, { token: admin.token })).body.messages as Array<{
      body: string;
      createdAt: string;
      wid: string;
    }>;
    expect(listed.map((m) => m.body)).toEqual(['bom dia', 'um', 'dois', 'três', 'alguém?']);
    expect(listed.map((m) => m.createdAt)).toEqual(
      [now - 300_000, now - 120_000, now - 120_000, now - 60_000, now].map((ms) => new Date(ms).toISOString()),
    );
    expect(listed.filter((m) => m.wid === first)).toHaveLength(1);
  });
});
