import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  TicketSubjects,
  WAITING_MESSAGE_PREVIEW,
  WaSubjects,
  type MessageDto,
  type MessageEvent,
  type TicketUpdatedEvent,
  type WaInboundMessage,
} from '@wa/contracts';
import { waitFor } from '@wa/testing';
import { randomUUID } from 'node:crypto';
import { newQueue, randomNumber, startTickets, TestCompany, ticketOfNumber, type TicketsUnderTest } from './harness.js';

/**
 * Undecryptable messages (issue 42 §5) as tickets stores them: a message WhatsApp delivered undecryptable is stored
 * waiting (mediaType 'ciphertext', empty body; the ticket's last message WhatsApp's waiting text), and the phone's
 * resend replaces it in place — one message, same id — announced as message.updated, with the ticket's last message.
 */

let t: TicketsUnderTest;

beforeAll(async () => {
  t = await startTickets();
});

afterAll(async () => {
  await t?.close();
});

const newId = () => `3A${randomUUID().replace(/-/g, '').slice(0, 18).toUpperCase()}`;

/** As whatsapp-sessions publishes it: a waiting message under the inbound msg id, its resend under the resent one. */
async function publish(
  c: TestCompany,
  connectionId: number,
  from: string,
  waMessageId: string,
  content: Partial<WaInboundMessage>,
  msgId?: string,
): Promise<void> {
  const msg: WaInboundMessage = {
    companyId: c.companyId,
    connectionId,
    waMessageId,
    from,
    fromName: 'Maria',
    body: '',
    mediaType: 'chat',
    fromMe: false,
    isGroup: false,
    timestamp: Math.floor(Date.now() / 1000) * 1000,
    ...content,
  };
  const id =
    msgId ??
    (msg.resend === 'replaces' ? WaSubjects.resentMsgId(connectionId, waMessageId) : WaSubjects.inboundMsgId(connectionId, waMessageId));
  await t.bus.publish(WaSubjects.inbound(c.companyId, connectionId, from), msg, { msgId: id });
}

const waiting = { body: '', mediaType: 'ciphertext', resend: 'waiting' } as const;

/** The first event on `subject` that `matches`, from now on. */
function nextOn<T>(subject: string, matches: (e: T) => boolean): Promise<T> {
  const sub = t.bus.connection.subscribe(subject, { timeout: 15_000 });
  return (async () => {
    for await (const m of sub) {
      const event = m.json<T>();
      if (matches(event)) {
        sub.unsubscribe();
        return event;
      }
    }
    throw new Error(`no matching event on ${subject}`);
  })();
}

const pageOf = async (token: string, ticketId: number) =>
  (await t.http.get(`/messages/${ticketId}`, { token })).body.messages as MessageDto[];

describe('undecryptable messages in tickets', () => {
  it('stores the waiting message as a message of its own, then the resend replaces it in place (message.updated, lastMessage); replays change nothing', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const conn = await c.connection();
    const from = randomNumber();
    const id = newId();

    // undecryptable: it opens the conversation as any message does
    await publish(c, conn.id, from, id, waiting);
    // its last message: WhatsApp's waiting text (written right after the message is stored)
    const ticket = await waitFor(
      async () => {
        const row = await ticketOfNumber(t, admin.token, from);
        return row.lastMessage === WAITING_MESSAGE_PREVIEW ? row : undefined;
      },
      { timeoutMs: 15_000 },
    );
    expect(ticket).toMatchObject({ unreadMessages: 1, status: 'pending' });
    const [stored] = await pageOf(admin.token, ticket.id);
    expect(stored).toMatchObject({ wid: id, body: '', mediaType: 'ciphertext', fromMe: false });

    // the phone's resend: the same message, its text (reading the chat above cleared the unread count)
    const updated = nextOn<MessageEvent>(TicketSubjects.messageUpdated(c.companyId, ticket.id), (e) => e.message.id === stored!.id);
    const ticketUpdated = nextOn<TicketUpdatedEvent>(
      TicketSubjects.ticketUpdated(c.companyId, ticket.id),
      (e) => e.ticket.lastMessage === 'quero o boleto',
    );
    await publish(c, conn.id, from, id, { body: 'quero o boleto', mediaType: 'chat', resend: 'replaces' });
    const event = await updated;
    expect(event.message).toMatchObject({ id: stored!.id, wid: id, body: 'quero o boleto', mediaType: 'chat', ticketId: ticket.id });
    expect((await ticketUpdated).ticket).toMatchObject({ id: ticket.id, lastMessage: 'quero o boleto' });
    const after = await pageOf(admin.token, ticket.id);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: stored!.id, wid: id, body: 'quero o boleto', mediaType: 'chat' });
    expect((await t.http.get(`/tickets/${ticket.id}`, { token: admin.token })).body.lastMessage).toBe('quero o boleto');

    // replays, past the bus's duplicate window (msg ids of their own): the waiting message and the resend again,
    // then a marker message; nothing but the marker is new
    await publish(c, conn.id, from, id, waiting, `${WaSubjects.inboundMsgId(conn.id, id)}:${randomUUID()}`);
    await publish(c, conn.id, from, id, { body: 'outro texto', mediaType: 'chat', resend: 'replaces' }, `${randomUUID()}`);
    await publish(c, conn.id, from, newId(), { body: 'e então?' });
    const final = await waitFor(
      async () => {
        const page = await pageOf(admin.token, ticket.id);
        return page.length >= 2 ? page : undefined;
      },
      { timeoutMs: 15_000 },
    );
    expect(final.map((m) => [m.wid === id, m.body, m.mediaType])).toEqual([
      [true, 'quero o boleto', 'chat'],
      [false, 'e então?', 'chat'],
    ]);
  });

  it('replaces a waiting message that is not the last without touching the last message; a resend never stored waiting is stored as a message', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const conn = await c.connection();
    const from = randomNumber();
    const id = newId();

    await publish(c, conn.id, from, id, waiting);
    await publish(c, conn.id, from, newId(), { body: 'alô?' });
    const ticket = await waitFor(
      async () => {
        const row = await ticketOfNumber(t, admin.token, from);
        return row.unreadMessages >= 2 ? row : undefined;
      },
      { timeoutMs: 15_000 },
    );
    expect(ticket.lastMessage).toBe('alô?');
    await publish(c, conn.id, from, id, { body: 'primeira', mediaType: 'chat', resend: 'replaces' });
    await waitFor(async () => (await pageOf(admin.token, ticket.id)).some((m) => m.wid === id && m.body === 'primeira'), {
      timeoutMs: 15_000,
    });
    expect((await pageOf(admin.token, ticket.id)).map((m) => m.body)).toEqual(['primeira', 'alô?']);
    expect((await t.http.get(`/tickets/${ticket.id}`, { token: admin.token })).body.lastMessage).toBe('alô?');

    // its waiting message never reached tickets: the resend is the message
    const lone = newId();
    await publish(c, conn.id, from, lone, { body: 'sozinha', mediaType: 'chat', resend: 'replaces' });
    await waitFor(async () => (await pageOf(admin.token, ticket.id)).some((m) => m.wid === lone && m.body === 'sozinha'), {
      timeoutMs: 15_000,
    });
    expect((await t.http.get(`/tickets/${ticket.id}`, { token: admin.token })).body).toMatchObject({ lastMessage: 'sozinha' });
  });

  it('stores a waiting message and its resend published back to back as one message with the text', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const conn = await c.connection();
    const from = randomNumber();
    const id = newId();
    await publish(c, conn.id, from, id, waiting);
    await publish(c, conn.id, from, id, { body: 'rápida', mediaType: 'chat', resend: 'replaces' });
    const ticket = await ticketOfNumber(t, admin.token, from);
    await waitFor(async () => (await pageOf(admin.token, ticket.id)).some((m) => m.body === 'rápida'), { timeoutMs: 15_000 });
    const page = await pageOf(admin.token, ticket.id);
    expect(page.map((m) => [m.wid, m.body, m.mediaType])).toEqual([[id, 'rápida', 'chat']]);
    await waitFor(async () => (await t.http.get(`/tickets/${ticket.id}`, { token: admin.token })).body.lastMessage === 'rápida', {
      timeoutMs: 15_000,
    });
  });

  it('gives the bot the resent text, not the waiting message: a menu choice sent undecryptable is taken once it is resent', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const sales = await newQueue(t, admin.token, 'Vendas');
    const support = await newQueue(t, admin.token, 'Suporte');
    const conn = await c.connection({ queueIds: [sales.id, support.id], greetingMessage: 'Olá! Escolha:' });
    const from = randomNumber();
    await publish(c, conn.id, from, newId(), { body: 'oi' });
    const ticket = await ticketOfNumber(t, admin.token, from);
    const botSaid = async () =>
      (await pageOf(admin.token, ticket.id)).filter((m) => (m as MessageDto & { isBot?: boolean }).isBot).map((m) => m.body);
    await waitFor(async () => ((await botSaid()).length === 1 ? true : undefined));

    // the choice arrives undecryptable: the bot says nothing to a message it cannot read
    const choice = newId();
    await publish(c, conn.id, from, choice, waiting);
    await waitFor(async () => ((await pageOf(admin.token, ticket.id)).some((m) => m.mediaType === 'ciphertext') ? true : undefined));
    await new Promise((r) => setTimeout(r, 500));
    expect(await botSaid()).toHaveLength(1);

    // the phone resends it: "1" is Suporte
    await publish(c, conn.id, from, choice, { body: '1', resend: 'replaces' });
    const routed = await waitFor(async () => {
      const res = await t.http.get(`/tickets/${ticket.id}`, { token: admin.token });
      return res.body.queueId === support.id ? res.body : undefined;
    });
    expect(routed).toMatchObject({ id: ticket.id, queueId: support.id });
  });
});
