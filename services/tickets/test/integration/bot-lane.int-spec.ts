import { afterEach, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { Streams, WaSubjects, type MessageBatchEvent, type MessageEvent, type WaInboundBatch } from '@wa/contracts';
import { waitFor } from '@wa/testing';
import { AckPolicy, DeliverPolicy } from 'nats';
import { BotService } from '../../src/automation/bot/bot.service.js';
import { listen, newQueue, randomNumber, startTickets, TestCompany, ticketOfNumber, type TicketsUnderTest } from './harness.js';

/**
 * The bot answers in the inbound path, after the store commits and before the delivery is acked: a turn
 * that fails for an outage is made by the retry, once. The durable lane it answered from before (versions
 * up to this one) is drained of what it holds at start, then removed.
 */

const running: TicketsUnderTest[] = [];

afterEach(async () => {
  for (const t of running.splice(0)) await t.close().catch(() => undefined);
});

async function start(): Promise<TicketsUnderTest> {
  const t = await startTickets();
  running.push(t);
  return t;
}

async function stop(t: TicketsUnderTest): Promise<void> {
  running.splice(running.indexOf(t), 1);
  await t.close();
}

/** A company whose connection has two queues and a greeting: a customer's first message gets the menu. */
async function menuCompany(t: TicketsUnderTest) {
  const c = new TestCompany(t);
  const admin = await c.user('admin');
  const sales = await newQueue(t, admin.token, 'Vendas');
  const support = await newQueue(t, admin.token, 'Suporte');
  const conn = await c.connection({ queueIds: [sales.id, support.id], greetingMessage: 'Olá! Escolha:' });
  return { c, admin, conn, support };
}

/** queues without orderQueue go by name */
const MENU = 'Olá! Escolha:\n\n*[ 1 ]* - Suporte\n*[ 2 ]* - Vendas';

/** The bot's messages on a ticket, oldest first. */
async function botMessages(t: TicketsUnderTest, token: string, ticketId: number): Promise<string[]> {
  const res = await t.http.get(`/messages/${ticketId}`, { token });
  return (res.body.messages as Array<{ id: number; body: string; isBot: boolean }>)
    .filter((m) => m.isBot)
    .sort((a, b) => a.id - b.id)
    .map((m) => m.body);
}

describe('the bot in the inbound path', () => {
  it('a turn that fails for an outage is made by the retry of the stored message, and only once', async () => {
    const t = await start();
    const { c, admin, conn } = await menuCompany(t);
    const bot = t.app.get(BotService);
    const real = bot.answerStored.bind(bot);
    let failures = 0;
    bot.answerStored = async (events) => {
      if (failures++ === 0) throw Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
      return real(events);
    };
    const from = randomNumber();
    await c.inbound(conn.id, from, 'oi');
    const ticket = await ticketOfNumber(t, admin.token, from);
    expect(
      await waitFor(async () =>
        (await botMessages(t, admin.token, ticket.id)).length > 0 ? botMessages(t, admin.token, ticket.id) : undefined,
      ),
    ).toEqual([MENU]);
    expect(failures).toBeGreaterThanOrEqual(2);
    // the retry found the message stored: one customer message, one menu, however long we wait
    await new Promise((r) => setTimeout(r, 500));
    const all = (await t.http.get(`/messages/${ticket.id}`, { token: admin.token })).body.messages as Array<{
      body: string;
      fromMe: boolean;
    }>;
    expect(all.map((m) => [m.fromMe, m.body])).toEqual(
      expect.arrayContaining([
        [false, 'oi'],
        [true, MENU],
      ]),
    );
    expect(all).toHaveLength(2);
  });

  it('the bot’s reply reaches the bus after the customer’s message, however long publishing that message takes', async () => {
    const t = await start();
    const { c, conn } = await menuCompany(t);
    // the customer's message events take 400 ms to be published
    const publish = t.bus.publish.bind(t.bus);
    t.bus.publish = async (subject, payload, opts) => {
      if (subject.startsWith(`message.created.${c.companyId}.`) && !(payload as { message: { fromMe: boolean } }).message.fromMe)
        await new Promise((r) => setTimeout(r, 400));
      return publish(subject, payload, opts);
    };
    const seen: Array<[boolean, string]> = [];
    const sub = t.bus.connection.subscribe(`message.created.${c.companyId}.*`, {
      callback: (_err, msg) => {
        const { message } = msg.json<{ message: { fromMe: boolean; body: string } }>();
        seen.push([message.fromMe, message.body]);
      },
    });
    try {
      await c.inbound(conn.id, randomNumber(), 'oi');
      await waitFor(async () => seen.length >= 2);
      expect(seen).toEqual([
        [false, 'oi'],
        [true, MENU],
      ]);
    } finally {
      sub.unsubscribe();
    }
  });

  it("the bot's replies to the customers of one inbound batch go onto the bus as one message.batch, after their messages", async () => {
    const t = await start();
    const { c, conn } = await menuCompany(t);
    const batches = listen<MessageBatchEvent>(t.bus.connection.subscribe(`message.batch.${c.companyId}.*`));
    const alone = listen<MessageEvent>(t.bus.connection.subscribe(`message.created.${c.companyId}.*`));
    const customers = [randomNumber(), randomNumber(), randomNumber()];
    const batch: WaInboundBatch = {
      companyId: c.companyId,
      connectionId: conn.id,
      messages: customers.map((from) => c.received(conn.id, from, 'oi')),
    };
    await t.bus.publish(WaSubjects.inboundBatch(c.companyId, conn.id), batch, {
      msgId: WaSubjects.inboundBatchMsgId(conn.id, randomUUID()),
    });
    const [asked, answered] = await waitFor(async () => (batches.length >= 2 ? batches : undefined), { timeoutMs: 15_000 });
    expect(asked.events.map((e) => [e.verb, e.message.fromMe, e.message.body])).toEqual(customers.map(() => ['created', false, 'oi']));
    // one menu a customer, each in its own ticket, as its message.created would have carried it
    expect(answered.events.map((e) => [e.verb, e.message.fromMe, e.message.body])).toEqual(customers.map(() => ['created', true, MENU]));
    expect(new Set(answered.events.map((e) => e.ticket.id))).toEqual(new Set(asked.events.map((e) => e.ticket.id)));
    for (const e of answered.events) expect(e.ticket).toMatchObject({ lastMessage: MENU, chatbot: true });
    await new Promise((r) => setTimeout(r, 300));
    expect(batches).toHaveLength(2);
    expect(alone).toEqual([]);
  });

  it('what the former durable lane still holds at start is answered, then the lane is removed', async () => {
    const a = await start();
    const jsm = await a.bus.connection.jetstreamManager();
    await jsm.consumers.delete(Streams.TICKETS.name, 'tickets-bot').catch(() => undefined);
    // the lane as versions before this one declared it, holding what is published from now on
    await jsm.consumers.add(Streams.TICKETS.name, {
      durable_name: 'tickets-bot',
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.New,
      filter_subject: 'message.created.>',
    });
    const { c, admin, conn, support } = await menuCompany(a);
    // a version that answered only from the lane: the message is stored and announced, not answered
    a.app.get(BotService).answerStored = async () => undefined;
    const from = randomNumber();
    await c.inbound(conn.id, from, 'oi');
    const ticket = await ticketOfNumber(a, admin.token, from);
    await waitFor(async () => (await jsm.consumers.info(Streams.TICKETS.name, 'tickets-bot')).num_pending > 0);
    expect(await botMessages(a, admin.token, ticket.id)).toEqual([]);
    await stop(a);

    const b = await start();
    expect(
      await waitFor(async () =>
        (await botMessages(b, admin.token, ticket.id)).length > 0 ? botMessages(b, admin.token, ticket.id) : undefined,
      ),
    ).toEqual([MENU]);
    const jsmB = await b.bus.connection.jetstreamManager();
    await waitFor(async () =>
      jsmB.consumers.info(Streams.TICKETS.name, 'tickets-bot').then(
        () => false,
        (err: Error) => /not found/i.test(err.message),
      ),
    );
    // the next message takes the inbound path: the customer picks 1 and the ticket lands in Suporte
    await c.through(b).inbound(conn.id, from, '1');
    expect(
      (
        await ticketOfNumber(b, admin.token, from).then(() =>
          waitFor(async () => {
            const res = await b.http.get(`/tickets/${ticket.id}`, { token: admin.token });
            return res.body.queueId === support.id ? res.body : undefined;
          }),
        )
      ).queueId,
    ).toBe(support.id);
  });
});
