import { afterEach, describe, expect, it } from '@jest/globals';
import { getDataSourceToken } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { Streams, WaSubjects, type MessageBatchEvent, type MessageEvent, type WaInboundBatch } from '@wa/contracts';
import { TEST_NATS_URL, waitFor } from '@wa/testing';
import { connect, type NatsConnection } from 'nats';
import type { DataSource } from 'typeorm';
import { listen, randomNumber, startTickets, TestCompany, type TicketsUnderTest } from './harness.js';

/**
 * The live events of stored changes survive a failure between the commit and the publish: the delivery of
 * an ack, or of an inbound batch, is acked only once its events are published, so the next process (an ack)
 * or the retry in the same process (an inbound batch) announces what it finds already stored.
 */

const running: TicketsUnderTest[] = [];
let nc: NatsConnection | undefined;

afterEach(async () => {
  for (const t of running.splice(0)) await t.close().catch(() => undefined);
  await nc?.close();
  nc = undefined;
});

async function start(overrides: Record<string, string> = {}): Promise<TicketsUnderTest> {
  const t = await startTickets(overrides);
  running.push(t);
  return t;
}

async function stop(t: TicketsUnderTest): Promise<void> {
  running.splice(running.indexOf(t), 1);
  await t.close();
}

const dbOf = (t: TicketsUnderTest) => t.app.get(getDataSourceToken()) as DataSource;

/** What nats.js throws when JetStream does not answer a publish (NATS unreachable). */
const unreachable = () => Object.assign(new Error('TIMEOUT'), { code: 'TIMEOUT' });

/**
 * From now on this process cannot publish (every publish of its bus fails as with NATS unreachable), or
 * only the publishes `fails` picks; answers how many publishes failed so far.
 */
function breakPublishing(
  t: TicketsUnderTest,
  fails: (subject: string) => boolean = () => true,
): { failed: () => number; realPublish: TicketsUnderTest['bus']['publish'] } {
  const realPublish = t.bus.publish.bind(t.bus);
  let failed = 0;
  t.bus.publish = (async (subject: string, payload: unknown, opts: { msgId: string }) => {
    if (fails(subject)) {
      failed++;
      throw unreachable();
    }
    return realPublish(subject, payload, opts);
  }) as typeof t.bus.publish;
  return { failed: () => failed, realPublish };
}

/** Collects what arrives on a subject, from a NATS connection of the test's own. */
async function ticketOf(t: TicketsUnderTest, token: string, contactNumber: string): Promise<{ id: number }> {
  return waitFor(async () => (await t.http.get(`/tickets?showAll=true&searchParam=${contactNumber}`, { token })).body.tickets?.[0]);
}

describe('an ack whose publish never happened', () => {
  it('is announced (message.updated) by the next process, which is handed the ack again and finds it risen', async () => {
    nc = await connect({ servers: TEST_NATS_URL });
    const a = await start();
    const c = new TestCompany(a);
    const admin = await c.user('admin');
    const conn = await c.connection();
    const from = randomNumber();
    await c.inbound(conn.id, from, 'oi');
    const ticket = await ticketOf(a, admin.token, from);
    const sent = await a.http.post(`/messages/${ticket.id}`, { token: admin.token, body: { body: 'Olá!' } });
    expect(sent.status).toBe(201);
    const messageId = sent.body.id as number;
    const updates = listen<MessageEvent>(nc.subscribe(`message.updated.${c.companyId}.${ticket.id}`));

    // NATS becomes unreachable for this process's publishes, then the session reports the message delivered
    const { failed, realPublish } = breakPublishing(a);
    await realPublish(
      `wa.ack.${c.companyId}.${conn.id}.${from}`,
      { companyId: c.companyId, connectionId: conn.id, waMessageId: sent.body.wid, ack: 3, at: Date.now() },
      { msgId: `${conn.id}:${sent.body.wid}:ack3` },
    );
    // the ack is committed …
    await waitFor(async () => (await dbOf(a).query(`SELECT ack FROM tickets.messages WHERE id = $1`, [messageId]))[0]?.ack === 3);
    // … but not announced: the process goes away between commit and publish
    await waitFor(async () => failed() > 0);
    await stop(a);
    expect(updates).toEqual([]);

    // the next process is handed the ack again, finds the message risen already, and announces it as it is
    await start();
    const event = await waitFor(async () => updates.find((e) => e.message.id === messageId), { timeoutMs: 15_000 });
    expect(event).toMatchObject({ companyId: c.companyId, message: { id: messageId, ack: 3, fromMe: true }, ticket: { id: ticket.id } });
  });
});

describe('an inbound batch whose publish failed after its commit', () => {
  it('is announced by the retry in the same process, which finds its messages already stored', async () => {
    nc = await connect({ servers: TEST_NATS_URL });
    // a redelivery (ack wait) cannot come to the rescue within this test: only the in-process retry can
    const t = await start({ INBOUND_ACK_WAIT_MS: '120000' });
    const c = new TestCompany(t);
    const conn = await c.connection();
    const from = randomNumber();
    const created = listen<MessageEvent>(nc.subscribe(`message.created.${c.companyId}.*`));

    // the first announcement of this company's messages fails (NATS unreachable for a moment)
    let toFail = 1;
    const { failed } = breakPublishing(t, (subject) => subject.startsWith(`message.created.${c.companyId}.`) && toFail-- > 0);
    const wid = await c.inbound(conn.id, from, 'primeira mensagem');

    const event = await waitFor(async () => created.find((e) => e.message.wid === wid), { timeoutMs: 15_000 });
    expect(failed()).toBe(1);
    // the message's event carries its ticket as the message left it (no ticket.updated follows a new message)
    expect(event).toMatchObject({
      companyId: c.companyId,
      message: { wid, body: 'primeira mensagem', fromMe: false },
      ticket: { lastMessage: 'primeira mensagem', unreadMessages: 1 },
    });
    // stored once
    const rows = await dbOf(t).query(`SELECT id FROM tickets.messages WHERE "whatsappId" = $1 AND wid = $2`, [conn.id, wid]);
    expect(rows).toHaveLength(1);
  });
});

describe('an inbound batch of many messages', () => {
  it('is announced as one message.batch of its company (each message as its message.created was), on the stream once though its publish was answered by a failure and retried', async () => {
    nc = await connect({ servers: TEST_NATS_URL });
    const t = await start({ INBOUND_ACK_WAIT_MS: '120000' });
    const c = new TestCompany(t);
    const conn = await c.connection();
    const [ana, bia] = [randomNumber(), randomNumber()];
    const batches = listen<MessageBatchEvent>(nc.subscribe(`message.batch.${c.companyId}.*`));
    const alone = listen<MessageEvent>(nc.subscribe(`message.created.${c.companyId}.*`));
    // the batch's first publish reaches the stream, but its answer is lost (NATS gone for a moment): the lane retries
    const realPublish = t.bus.publish.bind(t.bus);
    let lost = 0;
    t.bus.publish = (async (subject: string, payload: unknown, opts: { msgId: string }) => {
      const out = await realPublish(subject, payload, opts);
      if (subject.startsWith(`message.batch.${c.companyId}.`) && lost++ === 0) throw unreachable();
      return out;
    }) as typeof t.bus.publish;

    const texts: Array<[string, string]> = [
      [ana, 'um'],
      [bia, 'oi'],
      [ana, 'dois'],
      [bia, 'tudo bem?'],
    ];
    const batch: WaInboundBatch = {
      companyId: c.companyId,
      connectionId: conn.id,
      messages: texts.map(([from, body]) => c.received(conn.id, from, body)),
    };
    await t.bus.publish(WaSubjects.inboundBatch(c.companyId, conn.id), batch, {
      msgId: WaSubjects.inboundBatchMsgId(conn.id, randomUUID()),
    });

    // published twice (the bus's subscribers saw both), with the same msg id
    const [event, again] = await waitFor(async () => (batches.length >= 2 ? batches : undefined), { timeoutMs: 15_000 });
    expect(lost).toBe(2);
    expect(again).toEqual(event);
    expect(event.companyId).toBe(c.companyId);
    expect(event.events.map((e) => [e.verb, e.message.body, e.message.fromMe])).toEqual(texts.map(([, body]) => ['created', body, false]));
    // each carries its ticket as that message left it
    const [um, oi, dois, tudo] = event.events;
    expect(um.ticket.id).toBe(dois.ticket.id);
    expect(oi.ticket.id).toBe(tudo.ticket.id);
    expect(um.ticket.id).not.toBe(oi.ticket.id);
    expect(dois.ticket).toMatchObject({ lastMessage: 'dois', unreadMessages: 2 });
    expect(tudo.ticket).toMatchObject({ lastMessage: 'tudo bem?', unreadMessages: 2 });
    const ids = event.events.map((e) => e.message.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    // the stream kept it once, and nothing went alone
    const jsm = await nc.jetstreamManager();
    const held = await jsm.streams.info(Streams.TICKETS.name, { subjects_filter: `message.*.${c.companyId}.>` });
    expect(held.state.subjects).toEqual({ [`message.batch.${c.companyId}.${ids[0]}`]: 1 });
    expect(alone).toEqual([]);
  });
});
