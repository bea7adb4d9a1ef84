import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Subjects, WaSubjects } from '@wa/contracts';
import { waitFor } from '@wa/testing';
import { newQueue, randomNumber, startTickets, TestCompany, ticketOfNumber, type TicketsUnderTest } from './harness.js';

let t: TicketsUnderTest;

beforeAll(async () => {
  t = await startTickets();
});

afterAll(async () => {
  await t?.close();
});

const queue = (_c: TestCompany, token: string, name?: string) => newQueue(t, token, name);
const ticketOf = (token: string, contactNumber: string, status?: string) => ticketOfNumber(t, token, contactNumber, status);

describe('inbound messages become tickets', () => {
  it('creates a pending ticket; a second message joins it and raises unreadMessages; a replay stores nothing', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const q = await queue(c, admin.token);
    const conn = await c.connection({ queueIds: [q.id] });
    const from = randomNumber();
    const firstId = await c.inbound(conn.id, from, 'Olá, preciso de ajuda', { name: 'Maria Souza' });
    const ticket = await ticketOf(admin.token, from);
    expect(ticket).toMatchObject({
      status: 'pending',
      unreadMessages: 1,
      lastMessage: 'Olá, preciso de ajuda',
      queueId: q.id,
      whatsappId: conn.id,
    });
    expect(ticket.contact).toMatchObject({ name: 'Maria Souza', number: from });
    expect(ticket.queue).toMatchObject({ id: q.id, name: q.name, color: q.color });

    await c.inbound(conn.id, from, 'Alguém aí?');
    const joined = await waitFor(async () => {
      const res = await t.http.get(`/tickets/${ticket.id}`, { token: admin.token });
      return res.body.unreadMessages === 2 ? res.body : undefined;
    });
    expect(joined).toMatchObject({ id: ticket.id, lastMessage: 'Alguém aí?' });

    for (let i = 0; i < 3; i++) await c.inbound(conn.id, from, 'Olá, preciso de ajuda', { id: firstId });
    await new Promise((r) => setTimeout(r, 500));
    const page = await t.http.get(`/messages/${ticket.id}`, { token: admin.token });
    expect(page.body.messages.map((m: { body: string }) => m.body)).toEqual(['Olá, preciso de ajuda', 'Alguém aí?']);
    // reading cleared the unread count
    expect((await t.http.get(`/tickets/${ticket.id}`, { token: admin.token })).body.unreadMessages).toBe(0);
  });
});

describe('ticket states (spec 01 §4)', () => {
  it('accepts, returns, resolves and reopens, and greets on accept when the setting is on', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin', [], 'Ana Admin');
    const q = await queue(c, admin.token);
    const agent = await c.user('user', [q.id], 'Bruno Agente');
    const conn = await c.connection({ queueIds: [q.id] });
    await c.setting('sendGreetingAccepted', 'enabled');
    await new Promise((r) => setTimeout(r, 300));
    const from = randomNumber();
    await c.inbound(conn.id, from, 'Bom dia', { name: 'Carla Dias' });
    const ticket = await ticketOf(agent.token, from, 'pending');

    const accepted = await t.http.put(`/tickets/${ticket.id}`, { token: agent.token, body: { status: 'open' } });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ status: 'open', userId: agent.id, user: { id: agent.id, name: 'Bruno Agente' } });
    const msgs = await t.http.get(`/messages/${ticket.id}`, { token: agent.token });
    const greeting = msgs.body.messages.find((m: { fromMe: boolean }) => m.fromMe);
    expect(greeting.body).toMatch(/\*Carla\*, meu nome é \*Bruno Agente\* e agora vou prosseguir com seu atendimento!$/);
    expect(greeting.ack).toBe(0);

    const returned = await t.http.put(`/tickets/${ticket.id}`, { token: agent.token, body: { status: 'pending' } });
    expect(returned.body).toMatchObject({ status: 'pending', userId: null });
    await t.http.put(`/tickets/${ticket.id}`, { token: agent.token, body: { status: 'open' } });
    const resolved = await t.http.put(`/tickets/${ticket.id}`, { token: agent.token, body: { status: 'closed' } });
    expect(resolved.body).toMatchObject({ status: 'closed', userId: agent.id });
    const reopened = await t.http.put(`/tickets/${ticket.id}`, { token: admin.token, body: { status: 'open' } });
    expect(reopened.body).toMatchObject({ status: 'open', userId: admin.id });
  });

  it('tells the customer of a transfer when sendMsgTransfTicket is on: another queue, another agent, both; nothing when off', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin', [], 'Ana Admin');
    const sales = await queue(c, admin.token);
    const support = await queue(c, admin.token);
    const bruno = await c.user('user', [sales.id, support.id], 'Bruno Agente');
    const carla = await c.user('user', [sales.id, support.id], 'Carla Agente');
    const conn = await c.connection({ queueIds: [sales.id] });
    const from = randomNumber();
    await c.inbound(conn.id, from, 'Bom dia');
    const ticket = await ticketOf(admin.token, from, 'pending');
    expect((await t.http.put(`/tickets/${ticket.id}`, { token: bruno.token, body: { status: 'open' } })).status).toBe(200);
    const fromMe = async () =>
      (await t.http.get(`/messages/${ticket.id}`, { token: admin.token })).body.messages
        .filter((m: { fromMe: boolean }) => m.fromMe)
        .map((m: { body: string }) => m.body);

    // off (the default): a transfer sends nothing
    expect((await t.http.put(`/tickets/${ticket.id}`, { token: bruno.token, body: { queueId: support.id } })).status).toBe(200);
    expect(await fromMe()).toEqual([]);

    await c.setting('sendMsgTransfTicket', 'enabled');
    await new Promise((r) => setTimeout(r, 300));
    await t.http.put(`/tickets/${ticket.id}`, { token: bruno.token, body: { queueId: sales.id } });
    await t.http.put(`/tickets/${ticket.id}`, { token: bruno.token, body: { userId: carla.id } });
    await t.http.put(`/tickets/${ticket.id}`, { token: admin.token, body: { userId: bruno.id, queueId: support.id } });
    const moved = await t.http.put(`/tickets/${ticket.id}`, {
      token: admin.token,
      body: { queueId: sales.id, userId: null, status: 'pending' },
    });
    expect(moved.body).toMatchObject({ status: 'pending', userId: null, queueId: sales.id });
    expect(await fromMe()).toEqual([
      `*Mensagem automática*:\nVocê foi transferido para o departamento *${sales.name}*\naguarde, já vamos te atender!`,
      '*Mensagem automática*:\nFoi transferido para o atendente *Carla Agente*\naguarde, já vamos te atender!',
      `*Mensagem automática*:\nVocê foi transferido para o departamento *${support.name}* e contará com a presença de *Bruno Agente*\naguarde, já vamos te atender!`,
      `*Mensagem automática*:\nVocê foi transferido para o departamento *${sales.name}*\naguarde, já vamos te atender!`,
    ]);
    // accepting the pending ticket is no transfer
    await t.http.put(`/tickets/${ticket.id}`, { token: carla.token, body: { status: 'open' } });
    expect(await fromMe()).toHaveLength(4);
    // a waiting ticket handed to another agent (the transfer dialog) is theirs, open, without a greeting
    await t.http.put(`/tickets/${ticket.id}`, { token: carla.token, body: { status: 'pending' } });
    const handed = await t.http.put(`/tickets/${ticket.id}`, {
      token: carla.token,
      body: { status: 'open', userId: bruno.id, queueId: support.id },
    });
    expect(handed.body).toMatchObject({ status: 'open', userId: bruno.id, queueId: support.id });
    expect((await fromMe()).slice(4)).toEqual([
      `*Mensagem automática*:\nVocê foi transferido para o departamento *${support.name}*\naguarde, já vamos te atender!`,
    ]);
  });

  it('a new message after resolve opens a new pending ticket; reopening the old one then conflicts', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin', [], 'Ana Admin');
    const conn = await c.connection();
    const from = randomNumber();
    await c.inbound(conn.id, from, 'primeira conversa');
    const first = await ticketOf(admin.token, from);
    await t.http.put(`/tickets/${first.id}`, { token: admin.token, body: { status: 'closed' } });
    await c.inbound(conn.id, from, 'segunda conversa');
    const second = await waitFor(async () => {
      const res = await t.http.get(`/tickets?showAll=true&status=pending&searchParam=${from}`, { token: admin.token });
      return res.body.tickets.find((x: { id: number }) => x.id !== first.id);
    });
    expect(second.lastMessage).toBe('segunda conversa');
    const reopen = await t.http.put(`/tickets/${first.id}`, { token: admin.token, body: { status: 'open' } });
    expect(reopen.status).toBe(409);
    expect(reopen.body).toMatchObject({ error: 'ERR_OTHER_OPEN_TICKET', ticketId: second.id });
  });

  it('answers the ticket-holder conflict with who holds it and the queue name', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin', [], 'Ana Admin');
    const q = await queue(c, admin.token, 'Suporte');
    const holder = await c.user('user', [q.id], 'Diego Holder');
    const other = await c.user('user', [q.id], 'Eva Other');
    const conn = await c.connection({ queueIds: [q.id] });
    const from = randomNumber();
    await c.inbound(conn.id, from, 'oi');
    const ticket = await ticketOf(holder.token, from, 'pending');
    await t.http.put(`/tickets/${ticket.id}`, { token: holder.token, body: { status: 'open' } });
    const res = await t.http.post('/tickets', {
      token: other.token,
      body: { contactId: ticket.contactId, queueId: q.id, whatsappId: conn.id, status: 'open' },
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: 'ERR_OTHER_OPEN_TICKET', userId: holder.id, userName: 'Diego Holder', queueName: 'Suporte' });
    // an agent must name a queue
    const noQueue = await t.http.post('/tickets', { token: other.token, body: { contactId: ticket.contactId } });
    expect(noQueue.status).toBe(400);
    expect(noQueue.body.message).toBe('Selecione uma fila');
  });
});

describe('visibility', () => {
  it('agents see their queues and their own tickets; others answer 403 "Acesso não permitido"; membership changes apply on the next request', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const sales = await queue(c, admin.token, 'Vendas');
    const support = await queue(c, admin.token, 'Suporte');
    const agent = await c.user('user', [sales.id]);
    const salesConn = await c.connection({ queueIds: [sales.id], isDefault: true });
    const supportConn = await c.connection({ queueIds: [support.id], isDefault: false });
    const a = randomNumber();
    const b = randomNumber();
    await c.inbound(salesConn.id, a, 'quero comprar');
    await c.inbound(supportConn.id, b, 'meu pedido quebrou');
    const supportTicket = await ticketOf(admin.token, b);
    await ticketOf(admin.token, a);

    const list = await t.http.get('/tickets?status=pending', { token: agent.token });
    expect(list.body.tickets.map((x: { contact: { number: string } }) => x.contact.number)).toEqual([a]);
    const denied = await t.http.get(`/tickets/${supportTicket.id}`, { token: agent.token });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ error: 'ERR_NO_PERMISSION', message: 'Acesso não permitido' });
    expect((await t.http.get(`/messages/${supportTicket.id}`, { token: agent.token })).status).toBe(403);
    expect((await t.http.get(`/tickets/u/${supportTicket.uuid}`, { token: agent.token })).status).toBe(403);
    // the preview of a ticket: denied outside the agent's queues; for an admin it leaves the unread count alone
    expect((await t.http.get(`/messages/${supportTicket.id}?preview=true`, { token: agent.token })).body).toMatchObject({
      error: 'ERR_NO_PERMISSION',
      message: 'Acesso não permitido',
    });
    const peek = await t.http.get(`/messages/${supportTicket.id}?preview=true`, { token: admin.token });
    expect(peek.body.messages.map((m: { body: string }) => m.body)).toEqual(['meu pedido quebrou']);
    expect((await t.http.get(`/tickets/${supportTicket.id}`, { token: admin.token })).body.unreadMessages).toBe(1);

    // admin adds the agent to support: the very next request sees it
    await c.setQueues(agent.id, 'user', [sales.id, support.id]);
    expect((await t.http.get(`/tickets/${supportTicket.id}`, { token: agent.token })).status).toBe(200);
    const both = await t.http.get('/tickets?status=pending', { token: agent.token });
    expect(both.body.tickets).toHaveLength(2);
    // showAll is for admins only: an agent still sees only what they may
    const showAll = await t.http.get('/tickets?showAll=true', { token: agent.token });
    expect(showAll.body.tickets).toHaveLength(2);
  });

  it('allTicket "enabled" lets an agent see the pending tickets without queue (list and ticket); "desabled" does not', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const sales = await queue(c, admin.token, 'Vendas');
    const everyone = await c.user('user', [sales.id], 'Ana', 'enabled');
    const queueOnly = await c.user('user', [sales.id], 'Bia', 'desabled');
    // a connection with two queues: the ticket waits without one
    const other = await queue(c, admin.token, 'Outra');
    const conn = await c.connection({ queueIds: [sales.id, other.id] });
    const from = randomNumber();
    await c.inbound(conn.id, from, 'alguém aí?');
    const ticket = await ticketOf(admin.token, from);
    expect(ticket.queueId).toBeNull();
    const pendingOf = async (token: string) =>
      (await t.http.get('/tickets?status=pending', { token })).body.tickets.map((x: { id: number }) => x.id);
    expect(await pendingOf(everyone.token)).toEqual([ticket.id]);
    expect((await t.http.get(`/tickets/${ticket.id}`, { token: everyone.token })).status).toBe(200);
    expect(await pendingOf(queueOnly.token)).toEqual([]);
    expect((await t.http.get(`/tickets/${ticket.id}`, { token: queueOnly.token })).status).toBe(403);
    // once it is in the other queue it is not theirs any more
    expect((await t.http.put(`/tickets/${ticket.id}`, { token: admin.token, body: { queueId: other.id } })).status).toBe(200);
    expect(await pendingOf(everyone.token)).toEqual([]);
  });
});

describe('messages', () => {
  /** An admin of a new company and the pending ticket of an inbound "oi" on its connection. */
  async function pendingTicket() {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const conn = await c.connection();
    const from = randomNumber();
    await c.inbound(conn.id, from, 'oi');
    return { c, admin, conn, from, ticket: await ticketOf(admin.token, from) };
  }

  it('sends a reply with ack 0, publishes it for the session, and raises its ack from the session', async () => {
    const { c, admin, conn, from, ticket } = await pendingTicket();
    const sub = t.bus.connection.subscribe(`wa.outbound.send.${conn.id}`, { max: 1 });
    const sent = await t.http.post(`/messages/${ticket.id}`, { token: admin.token, body: { body: '*Ana:*\nComo posso ajudar?' } });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ fromMe: true, ack: 0, body: '*Ana:*\nComo posso ajudar?' });
    let outbound: { waMessageId: string; to: string; body: string } | undefined;
    for await (const m of sub) outbound = m.json();
    expect(outbound).toMatchObject({ waMessageId: sent.body.wid, to: from, body: '*Ana:*\nComo posso ajudar?' });
    // the session reports delivered (3) then read (4); a late "sent" (1) lowers nothing
    for (const ack of [3, 4, 1]) {
      await t.bus.publish(
        `wa.ack.${c.companyId}.${conn.id}.${from}`,
        { companyId: c.companyId, connectionId: conn.id, waMessageId: sent.body.wid, ack, at: Date.now() },
        { msgId: `${conn.id}:${sent.body.wid}:ack${ack}` },
      );
    }
    const acked = await waitFor(async () => {
      const page = await t.http.get(`/messages/${ticket.id}`, { token: admin.token });
      const m = page.body.messages.find((x: { id: number }) => x.id === sent.body.id);
      return m?.ack === 4 ? m : undefined;
    });
    expect(acked.ack).toBe(4);
    await new Promise((r) => setTimeout(r, 300));
    const after = await t.http.get(`/messages/${ticket.id}`, { token: admin.token });
    expect(after.body.messages.find((x: { id: number }) => x.id === sent.body.id).ack).toBe(4);
  });

  it('raises the acks of several messages that the session reports in one event, and leaves out what points at nothing', async () => {
    const { c, admin, conn, ticket } = await pendingTicket();
    const a = await t.http.post(`/messages/${ticket.id}`, { token: admin.token, body: { body: 'primeira' } });
    const b = await t.http.post(`/messages/${ticket.id}`, { token: admin.token, body: { body: 'segunda' } });
    const acks = [
      { waMessageId: a.body.wid, ack: 2 },
      { waMessageId: b.body.wid, ack: 3 },
      { waMessageId: a.body.wid, ack: 4 },
      { waMessageId: '', ack: 4 },
      { waMessageId: b.body.wid, ack: 'read' },
    ];
    await t.bus.publish(
      WaSubjects.acks(c.companyId, conn.id),
      { companyId: c.companyId, connectionId: conn.id, at: Date.now(), acks },
      { msgId: `${conn.id}:acks:${a.body.wid}` },
    );
    const page = await waitFor(async () => {
      const res = await t.http.get(`/messages/${ticket.id}`, { token: admin.token });
      const ackOf = (id: number) => res.body.messages.find((x: { id: number }) => x.id === id)?.ack;
      return ackOf(a.body.id) === 4 && ackOf(b.body.id) === 3 ? res.body.messages : undefined;
    });
    expect(page.map((m: { body: string; ack: number }) => [m.body, m.ack])).toEqual(
      expect.arrayContaining([
        ['primeira', 4],
        ['segunda', 3],
      ]),
    );
  });

  it("takes a message as the original product's web client sends it (read: 1, mediaUrl: '', quotedMsg: null); refuses real junk", async () => {
    const { admin, ticket } = await pendingTicket();
    const sent = await t.http.post(`/messages/${ticket.id}`, {
      token: admin.token,
      body: { read: 1, fromMe: true, mediaUrl: '', body: 'Olá! Como posso ajudar?', quotedMsg: null },
    });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ body: 'Olá! Como posso ajudar?', fromMe: true, ack: 0 });
    expect(
      (await t.http.post(`/messages/${ticket.id}`, { token: admin.token, body: { read: 0, fromMe: 1, body: 'segunda' } })).status,
    ).toBe(201);
    for (const junk of [{ read: 'yes' }, { read: 2 }, { fromMe: { a: 1 } }, { mediaUrl: 5 }]) {
      const res = await t.http.post(`/messages/${ticket.id}`, { token: admin.token, body: { body: 'nunca enviada', ...junk } });
      expect({ junk, status: res.status, error: res.body.error }).toEqual({ junk, status: 400, error: 'ERR_VALIDATION' });
    }
    const page = await t.http.get(`/messages/${ticket.id}`, { token: admin.token });
    expect(page.body.messages.map((m: { body: string }) => m.body)).not.toContain('nunca enviada');
  });

  it('refuses empty text and a connection that is not connected', async () => {
    const { c, admin, conn, ticket } = await pendingTicket();
    for (const body of ['', '   \n\t ']) {
      const res = await t.http.post(`/messages/${ticket.id}`, { token: admin.token, body: { body } });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }
    await c.connection({ id: conn.id, status: 'DISCONNECTED', updatedAt: new Date(Date.now() + 1000).toISOString() } as never);
    const res = await t.http.post(`/messages/${ticket.id}`, { token: admin.token, body: { body: 'olá' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_WAPP_NOT_INITIALIZED');
  });

  it('pages messages newest page first, oldest first within a page, by page number and by cursor', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const conn = await c.connection();
    const from = randomNumber();
    for (let i = 1; i <= 45; i++) await c.inbound(conn.id, from, `m${i}`);
    const ticket = await waitFor(async () => {
      const x = await ticketOf(admin.token, from);
      return x.unreadMessages === 45 ? x : undefined;
    });
    const p1 = await t.http.get(`/messages/${ticket.id}?pageNumber=1`, { token: admin.token });
    expect(p1.body.messages.map((m: { body: string }) => m.body)).toEqual(Array.from({ length: 20 }, (_, i) => `m${26 + i}`));
    expect(p1.body.hasMore).toBe(true);
    const p3 = await t.http.get(`/messages/${ticket.id}?pageNumber=3`, { token: admin.token });
    expect(p3.body.messages.map((m: { body: string }) => m.body)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    expect(p3.body.hasMore).toBe(false);
    const c2 = await t.http.get(`/messages/${ticket.id}?cursor=${p1.body.nextCursor}`, { token: admin.token });
    expect(c2.body.messages.map((m: { body: string }) => m.body)).toEqual(Array.from({ length: 20 }, (_, i) => `m${6 + i}`));
  });
});

describe('ticket lists', () => {
  it('pages by number and by cursor without gaps or repeats, and searches names, numbers and message text', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const conn = await c.connection();
    const numbers: string[] = [];
    for (let i = 0; i < 45; i++) {
      const n = randomNumber();
      numbers.push(n);
      await c.inbound(conn.id, n, i === 7 ? 'procuro um abacaxi dourado' : `mensagem ${i}`, {
        name: i === 3 ? 'Zuleica Prado' : `Cliente ${i}`,
      });
    }
    await waitFor(async () => (await t.http.get('/tickets?showAll=true&pageNumber=2', { token: admin.token })).body.tickets.length === 5);
    const p1 = await t.http.get('/tickets?showAll=true&pageNumber=1', { token: admin.token });
    expect(p1.body.tickets).toHaveLength(40);
    expect(p1.body.hasMore).toBe(true);
    const viaCursor = await t.http.get(`/tickets?showAll=true&cursor=${p1.body.nextCursor}`, { token: admin.token });
    const all = [...p1.body.tickets, ...viaCursor.body.tickets].map((x: { contact: { number: string } }) => x.contact.number);
    expect(new Set(all).size).toBe(45);
    expect(viaCursor.body.hasMore).toBe(false);
    expect(
      (await t.http.get('/tickets?showAll=true&searchParam=zuleica', { token: admin.token })).body.tickets.map(
        (x: { contact: { name: string } }) => x.contact.name,
      ),
    ).toEqual(['Zuleica Prado']);
    expect(
      (await t.http.get('/tickets?showAll=true&searchParam=abacaxi%20dourado', { token: admin.token })).body.tickets.map(
        (x: { contact: { number: string } }) => x.contact.number,
      ),
    ).toEqual([numbers[7]]);
    expect(
      (await t.http.get(`/tickets?showAll=true&searchParam=${numbers[12].slice(-8)}`, { token: admin.token })).body.tickets,
    ).toHaveLength(1);
    expect((await t.http.get('/tickets?showAll=true&queueIds=[1,x]', { token: admin.token })).status).toBe(400);
  });

  it('searches exactly whether a term matches most tickets, a tenth of them or one beyond the newest 400', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const conn = await c.connection();
    const { getDataSourceToken } = await import('@nestjs/typeorm');
    const ds = t.app.get(getDataSourceToken()) as import('typeorm').DataSource;
    // 450 tickets, i = 0 the newest: "Cliente i", every tenth asks for a quote, the oldest is Zuleica
    const ids: number[] = await ds
      .query(
        `WITH c AS (
         INSERT INTO tickets.contacts ("companyId", name, number)
         SELECT $1, CASE WHEN g = 449 THEN 'Zuleica Antiga' ELSE 'Cliente ' || g END, '5521' || (900000000 + g)::text FROM generate_series(0, 449) g
         RETURNING id, number),
       tk AS (
         INSERT INTO tickets.tickets ("companyId", "contactId", "whatsappId", status, "lastMessage", "createdAt", "updatedAt")
         SELECT $1, c.id, $2, 'pending', 'm', now(), now() - (c.number::bigint - 5521900000000) * interval '1 minute' FROM c
         RETURNING id, "contactId", "updatedAt")
       SELECT tk.id FROM tk ORDER BY tk."updatedAt" DESC`,
        [c.companyId, conn.id],
      )
      .then((rows: Array<{ id: number }>) => rows.map((r) => r.id));
    await ds.query(
      `INSERT INTO tickets.messages ("companyId", "ticketId", "contactId", "whatsappId", wid, body, "sentAt")
       SELECT t."companyId", t.id, t."contactId", t."whatsappId", 'S' || t.id,
              CASE WHEN (x.n - 1) % 10 = 3 THEN 'quero um orçamento' ELSE 'mensagem ' || (x.n - 1) END, t."updatedAt"
         FROM unnest($1::int[]) WITH ORDINALITY AS x(id, n) JOIN tickets.tickets t ON t.id = x.id`,
      [ids],
    );
    const list = async (query: string) =>
      (await t.http.get(`/tickets?showAll=true&${query}`, { token: admin.token })).body as {
        tickets: Array<{ id: number }>;
        hasMore: boolean;
        nextCursor: string | null;
      };
    const idsOf = (page: { tickets: Array<{ id: number }> }) => page.tickets.map((x) => x.id);
    const range = (from: number, to: number, step = 1) =>
      Array.from({ length: Math.ceil((to - from) / step) }, (_, k) => ids[from + k * step]);

    // most tickets match: the newest ones, page by page, and by cursor alike
    const broad1 = await list('searchParam=cliente');
    expect(idsOf(broad1)).toEqual(range(0, 40));
    expect(broad1.hasMore).toBe(true);
    expect(idsOf(await list('searchParam=cliente&pageNumber=2'))).toEqual(range(40, 80));
    expect(idsOf(await list(`searchParam=cliente&cursor=${broad1.nextCursor}`))).toEqual(range(40, 80));
    expect(idsOf(await list('searchParam=CLIENTE&pageNumber=12'))).toEqual(range(440, 449));
    // a tenth match, spread over all 450: 45 in list order
    const quote1 = await list('searchParam=or%C3%A7amento');
    expect(idsOf(quote1)).toEqual(range(3, 403, 10));
    expect(quote1.hasMore).toBe(true);
    const quote2 = await list('searchParam=or%C3%A7amento&pageNumber=2');
    expect(idsOf(quote2)).toEqual(range(403, 453, 10));
    expect(quote2.hasMore).toBe(false);
    // one match, older than the newest 400
    expect(idsOf(await list('searchParam=zuleica'))).toEqual([ids[449]]);
    expect(idsOf(await list('searchParam=nada%20disso'))).toEqual([]);
  });
});

describe('queues', () => {
  it("gives a company made by sign-up (auth's company.created) its default queue, once", async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const event = { companyId: c.companyId, name: 'Nova Empresa', at: new Date().toISOString() };
    await t.bus.publish(Subjects.companyCreated(c.companyId), event, { msgId: `test-company-created:${c.companyId}` });
    // a redelivery (another msg id) adds nothing
    await t.bus.publish(Subjects.companyCreated(c.companyId), event, { msgId: `test-company-created:${c.companyId}:again` });
    const queues = await waitFor(async () => {
      const res = await t.http.get('/queue', { token: admin.token });
      return res.body.length > 0 ? res.body : undefined;
    });
    await new Promise((r) => setTimeout(r, 300));
    expect((await t.http.get('/queue', { token: admin.token })).body.map((q: { name: string }) => q.name)).toEqual(['Atendimento']);
    expect(queues[0]).toMatchObject({ name: 'Atendimento', color: '#2e7d32' });
  });

  it('creates, edits and deletes queues (admins), refuses a colour in use and validates names', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const agent = await c.user('user');
    const created = await t.http.post('/queue', {
      token: admin.token,
      body: { name: 'Financeiro', color: '#ff0000', greetingMessage: 'Olá!' },
    });
    expect(created.status).toBe(201);
    expect((await t.http.post('/queue', { token: admin.token, body: { name: 'Outra', color: '#FF0000' } })).body.error).toBe(
      'ERR_QUEUE_COLOR_ALREADY_EXISTS',
    );
    const short = await t.http.post('/queue', { token: admin.token, body: { name: 'F', color: '#00ff00' } });
    expect(short.status).toBe(400);
    expect(short.body.details[0]).toMatchObject({ field: 'name', messages: ['Too Short!'] });
    expect((await t.http.post('/queue', { token: agent.token, body: { name: 'Agentes', color: '#0000ff' } })).status).toBe(403);
    const edited = await t.http.put(`/queue/${created.body.id}`, { token: admin.token, body: { name: 'Finanças' } });
    expect(edited.body.name).toBe('Finanças');
    expect((await t.http.get('/queue', { token: agent.token })).body.map((q: { name: string }) => q.name)).toEqual(['Finanças']);
    expect((await t.http.delete(`/queue/${created.body.id}`, { token: admin.token })).status).toBe(200);
    expect((await t.http.get(`/queue/${created.body.id}`, { token: admin.token })).status).toBe(404);
  });
});

describe('tenant isolation', () => {
  it("company B cannot read, change or list A's tickets, messages or queues, nor send on A's ticket", async () => {
    const a = new TestCompany(t);
    const b = new TestCompany(t);
    const adminA = await a.user('admin');
    const adminB = await b.user('admin');
    const qa = await queue(a, adminA.token, 'Fila A');
    const conn = await a.connection({ queueIds: [qa.id] });
    const from = randomNumber();
    await a.inbound(conn.id, from, 'segredo da empresa A');
    const ticket = await ticketOf(adminA.token, from);
    for (const path of [`/tickets/${ticket.id}`, `/tickets/u/${ticket.uuid}`, `/messages/${ticket.id}`, `/queue/${qa.id}`]) {
      expect([403, 404]).toContain((await t.http.get(path, { token: adminB.token })).status);
    }
    expect([403, 404]).toContain((await t.http.put(`/tickets/${ticket.id}`, { token: adminB.token, body: { status: 'open' } })).status);
    expect([403, 404]).toContain((await t.http.post(`/messages/${ticket.id}`, { token: adminB.token, body: { body: 'intrusão' } })).status);
    expect([403, 404]).toContain((await t.http.delete(`/tickets/${ticket.id}`, { token: adminB.token })).status);
    expect([403, 404]).toContain((await t.http.put(`/queue/${qa.id}`, { token: adminB.token, body: { name: 'Roubada' } })).status);
    expect((await t.http.get('/tickets?showAll=true&searchParam=segredo', { token: adminB.token })).body.tickets).toEqual([]);
    expect((await t.http.get('/queue', { token: adminB.token })).body).toEqual([]);
    const still = await t.http.get(`/tickets/${ticket.id}`, { token: adminA.token });
    expect(still.body).toMatchObject({ status: 'pending', lastMessage: 'segredo da empresa A' });
    const b2 = await t.http.post('/tickets', { token: adminB.token, body: { contactId: ticket.contactId, whatsappId: conn.id } });
    expect(b2.status).toBe(404);
  });

  it("refuses ids of another company in a body: a ticket is never given to B's agent nor moved to B's queue", async () => {
    const a = new TestCompany(t);
    const b = new TestCompany(t);
    const adminA = await a.user('admin');
    const adminB = await b.user('admin');
    const agentB = await b.user('user');
    const queueB = await queue(b, adminB.token, 'Fila B');
    const conn = await a.connection();
    const from = randomNumber();
    await a.inbound(conn.id, from, 'para a empresa A');
    const ticket = await ticketOf(adminA.token, from);
    for (const body of [
      { status: 'open', userId: agentB.id },
      { userId: agentB.id },
      { queueId: queueB.id },
      { status: 'closed', userId: agentB.id },
    ]) {
      const res = await t.http.put(`/tickets/${ticket.id}`, { token: adminA.token, body });
      expect({ body, status: res.status, error: res.body.error }).toEqual({ body, status: 400, error: 'ERR_VALIDATION' });
      // in the product's words (ERR_NO_USER_FOUND's text, spec 01 §8)
      if ('userId' in body) expect(res.body.details).toEqual([{ field: 'userId', messages: ['Nenhum usuário encontrado com este ID.'] }]);
    }
    // nothing written
    expect((await t.http.get(`/tickets/${ticket.id}`, { token: adminA.token })).body).toMatchObject({
      status: 'pending',
      userId: null,
      queueId: null,
    });
    // the same id of A's own agent is accepted
    const agentA = await a.user('user');
    const given = await t.http.put(`/tickets/${ticket.id}`, { token: adminA.token, body: { status: 'open', userId: agentA.id } });
    expect(given.status).toBe(200);
    expect(given.body).toMatchObject({ status: 'open', userId: agentA.id });
  });
});
