import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  sessionCommandSubject,
  TicketSubjects,
  WaSubjects,
  type MessageDto,
  type MessageEvent,
  type WaInboundMessage,
} from '@wa/contracts';
import { serve } from '@wa/event-bus';
import { waitFor } from '@wa/testing';
import { randomNumber, startTickets, TestCompany, ticketOfNumber, type TicketsUnderTest } from './harness.js';

/**
 * Issue 39 item 7: a message that answers another carries it as `quotedMsg` (its body, fromMe, mediaType and
 * contact, as the original client reads them), in the send's answer, the message list, the edit's answer and the
 * live `message.created` / `message.updated` events, not only its `quotedMsgId`.
 */

let t: TicketsUnderTest;

beforeAll(async () => {
  t = await startTickets();
});

afterAll(async () => {
  await t?.close();
});

/** The first event of a subject whose message `matches`, as the realtime gateway would get it. */
function nextEvent(subject: string, matches: (m: MessageDto) => boolean): Promise<MessageEvent> {
  const sub = t.bus.connection.subscribe(subject, { timeout: 15_000 });
  return (async () => {
    for await (const m of sub) {
      const event = m.json<MessageEvent>();
      if (matches(event.message)) {
        sub.unsubscribe();
        return event;
      }
    }
    throw new Error(`no matching event on ${subject}`);
  })();
}

const pageOf = async (token: string, ticketId: number) =>
  (await t.http.get(`/messages/${ticketId}`, { token })).body.messages as MessageDto[];

describe('the quoted message (quotedMsg) wherever a message leaves tickets', () => {
  it("an agent's reply to a customer's message answers, lists and announces quotedMsg with its body and contact", async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const conn = await c.connection();
    const from = randomNumber();
    await c.inbound(conn.id, from, 'Qual o preço da peça?', { name: 'Maria Cliente' });
    const ticket = (await ticketOfNumber(t, admin.token, from)) as { id: number; contactId: number };
    const question = (await waitFor(async () => (await pageOf(admin.token, ticket.id)).find((m) => !m.fromMe))) as MessageDto;
    expect(question.quotedMsg).toBeNull();

    const created = nextEvent(TicketSubjects.messageCreated(c.companyId, ticket.id), (m) => m.body === 'R$ 120,00');
    const sent = await t.http.post(`/messages/${ticket.id}`, {
      token: admin.token,
      body: { body: 'R$ 120,00', fromMe: true, read: true, mediaUrl: '', quotedMsg: { id: question.id } },
    });
    expect(sent.status).toBe(201);
    const quoted = {
      id: question.id,
      body: 'Qual o preço da peça?',
      fromMe: false,
      mediaType: 'chat',
      contact: { id: ticket.contactId, name: 'Maria Cliente', number: from },
    };
    expect(sent.body).toMatchObject({ body: 'R$ 120,00', quotedMsgId: question.id, quotedMsg: quoted });
    const event = await created;
    expect(event.message).toMatchObject({ id: sent.body.id, quotedMsgId: question.id, quotedMsg: quoted });

    // the list: the reply with its quote, the question with none
    const page = await pageOf(admin.token, ticket.id);
    expect(page.find((m) => m.id === sent.body.id)).toMatchObject({ quotedMsgId: question.id, quotedMsg: quoted });
    expect(page.find((m) => m.id === question.id)?.quotedMsg).toBeNull();

    // its first tick (message.updated) still carries it, and so does an edit's answer
    const updated = nextEvent(TicketSubjects.messageUpdated(c.companyId, ticket.id), (m) => m.id === sent.body.id && m.ack >= 1);
    await t.bus.publish(
      WaSubjects.ack(c.companyId, conn.id, from),
      { companyId: c.companyId, connectionId: conn.id, waMessageId: sent.body.wid, ack: 1, at: Date.now() },
      { msgId: `${conn.id}:${sent.body.wid}:ack1` },
    );
    const ticked = await updated;
    expect(ticked.message).toMatchObject({ id: sent.body.id, ack: 1, quotedMsg: quoted });
    const stop = serve(t.bus, sessionCommandSubject(conn.id), () => ({ ok: true }));
    try {
      const edited = await t.http.post(`/messages/edit/${sent.body.id}`, { token: admin.token, body: { body: 'R$ 110,00' } });
      expect(edited.status).toBe(200);
      expect(edited.body).toMatchObject({ body: 'R$ 110,00', isEdited: true, quotedMsg: quoted });
    } finally {
      stop();
    }
  });

  it("a customer's reply to our message announces and lists quotedMsg with fromMe true", async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const conn = await c.connection();
    const from = randomNumber();
    await c.inbound(conn.id, from, 'oi');
    const ticket = (await ticketOfNumber(t, admin.token, from)) as { id: number };
    const ours = (await t.http.post(`/messages/${ticket.id}`, { token: admin.token, body: { body: 'Podemos entregar amanhã?' } }))
      .body as MessageDto;

    const created = nextEvent(TicketSubjects.messageCreated(c.companyId, ticket.id), (m) => m.body === 'Sim, pode ser');
    const reply: WaInboundMessage = {
      companyId: c.companyId,
      connectionId: conn.id,
      waMessageId: `INQ${Date.now()}${Math.floor(Math.random() * 1e6)}`,
      from,
      fromName: 'Maria',
      body: 'Sim, pode ser',
      mediaType: 'chat',
      fromMe: false,
      isGroup: false,
      timestamp: Date.now(),
      quotedWaMessageId: ours.wid,
    };
    await t.bus.publish(WaSubjects.inbound(c.companyId, conn.id, from), reply, {
      msgId: WaSubjects.inboundMsgId(conn.id, reply.waMessageId),
    });
    const event = await created;
    const quoted = { id: ours.id, body: 'Podemos entregar amanhã?', fromMe: true, mediaType: 'chat' };
    expect(event.message).toMatchObject({ body: 'Sim, pode ser', quotedMsgId: ours.id, quotedMsg: quoted });
    const listed = (await pageOf(admin.token, ticket.id)).find((m) => m.body === 'Sim, pode ser');
    expect(listed).toMatchObject({ quotedMsgId: ours.id, quotedMsg: quoted });
  });

  it('another company cannot quote a message of a ticket it does not hold', async () => {
    const a = new TestCompany(t);
    const adminA = await a.user('admin');
    const connA = await a.connection();
    const fromA = randomNumber();
    await a.inbound(connA.id, fromA, 'segredo da empresa A');
    const ticketA = (await ticketOfNumber(t, adminA.token, fromA)) as { id: number };
    const secret = (await waitFor(async () => (await pageOf(adminA.token, ticketA.id)).find((m) => !m.fromMe))) as MessageDto;

    const b = new TestCompany(t);
    const adminB = await b.user('admin');
    const connB = await b.connection();
    const fromB = randomNumber();
    await b.inbound(connB.id, fromB, 'oi');
    const ticketB = (await ticketOfNumber(t, adminB.token, fromB)) as { id: number };
    const sent = await t.http.post(`/messages/${ticketB.id}`, { token: adminB.token, body: { body: 'olá', quotedMsg: { id: secret.id } } });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ quotedMsgId: null, quotedMsg: null });
  });
});
