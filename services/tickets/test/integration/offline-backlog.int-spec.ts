import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { WaSubjects, type WaInboundBatch, type WaInboundMessage } from '@wa/contracts';
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

/** A message as whatsapp-sessions receives it, written at `writtenAt` (WhatsApp's clock: whole seconds). */
function received(c: TestCompany, connectionId: number, from: string, body: string, writtenAt: number, id?: string): WaInboundMessage {
  return c.received(connectionId, from, body, { id, timestamp: writtenAt });
}

/** A message as whatsapp-sessions publishes it, written at `writtenAt` (WhatsApp's clock: whole seconds). */
async function publish(c: TestCompany, connectionId: number, from: string, body: string, writtenAt: number, id?: string): Promise<string> {
  const msg = received(c, connectionId, from, body, writtenAt, id);
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

  it("stores a connection's batch (one stream message for what a turn of its session received) in each conversation's order, with its own times, around messages published alone; the batch again stores nothing twice", async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const conn = await c.connection();
    const [ana, bia] = [randomNumber(), randomNumber()];
    const now = Math.floor(Date.now() / 1000) * 1000;

    await publish(c, conn.id, ana, 'antes', now - 300_000);
    const anaTicket = await ticketOfNumber(t, admin.token, ana);
    // the backlog of both, handed over together: two of Ana's of the same second (their order is the order handed over)
    const batch: WaInboundBatch = {
      companyId: c.companyId,
      connectionId: conn.id,
      messages: [
        received(c, conn.id, ana, 'um', now - 120_000),
        received(c, conn.id, bia, 'oi', now - 110_000),
        received(c, conn.id, ana, 'dois', now - 120_000),
        received(c, conn.id, ana, 'três', now - 60_000),
        received(c, conn.id, bia, 'tudo bem?', now - 50_000),
      ],
    };
    const publishBatch = (msgId: string) => t.bus.publish(WaSubjects.inboundBatch(c.companyId, conn.id), batch, { msgId });
    await publishBatch(WaSubjects.inboundBatchMsgId(conn.id, randomUUID()));
    await publish(c, conn.id, ana, 'depois', now);

    const listed = async (ticketId: number) =>
      ((await t.http.get(`/messages/${ticketId}`, { token: admin.token })).body.messages as Array<{ body: string; createdAt: string }>).map(
        (m) => [m.body, m.createdAt],
      );
    await waitFor(async () => (await t.http.get(`/tickets/${anaTicket.id}`, { token: admin.token })).body.unreadMessages === 5, {
      timeoutMs: 15_000,
    });
    const at = (ms: number) => new Date(ms).toISOString();
    expect(await listed(anaTicket.id)).toEqual([
      ['antes', at(now - 300_000)],
      ['um', at(now - 120_000)],
      ['dois', at(now - 120_000)],
      ['três', at(now - 60_000)],
      ['depois', at(now)],
    ]);
    const biaTicket = await ticketOfNumber(t, admin.token, bia);
    expect(biaTicket).toMatchObject({ lastMessage: 'tudo bem?', unreadMessages: 2 });
    expect(await listed(biaTicket.id)).toEqual([
      ['oi', at(now - 110_000)],
      ['tudo bem?', at(now - 50_000)],
    ]);

    // the same batch again under another msg id (handed over again by a process that did not know it went out), then
    // one more message behind it: nothing of the batch is stored twice (reading the messages above marked them read)
    await publishBatch(WaSubjects.inboundBatchMsgId(conn.id, randomUUID()));
    await publish(c, conn.id, bia, 'e agora?', now + 1000);
    await waitFor(async () => (await ticketOfNumber(t, admin.token, bia)).lastMessage === 'e agora?', { timeoutMs: 15_000 });
    expect((await listed(anaTicket.id)).map(([body]) => body)).toEqual(['antes', 'um', 'dois', 'três', 'depois']);
    expect((await listed(biaTicket.id)).map(([body]) => body)).toEqual(['oi', 'tudo bem?', 'e agora?']);
  });
});
