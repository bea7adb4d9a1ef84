import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createDataSource, runMigrations } from '@wa/database';
import { signAccessToken } from '@wa/auth';
import { WAITING_MESSAGE_PREVIEW } from '@wa/contracts';
import { HttpClient, pdfFile, pngFile, randomIp, TEST_DATABASE_URL, TEST_JWT_SECRET, uniqueSuffix, waitFor } from '@wa/testing';
import { randomUUID } from 'node:crypto';
import { authDatabase } from '../../services/auth/src/database/data-source.js';
import { ticketsDatabase } from '../../services/tickets/src/database/data-source.js';
import { whatsappDatabase } from '../../services/whatsapp-sessions/src/database/data-source.js';
import { startMessagePath, stopProcesses, type ServiceProcess } from './processes.js';
import { Product } from './product.js';

const running: ServiceProcess[] = [];
let http: HttpClient;
let product: Product;
let gatewayUrl: string;

beforeAll(async () => {
  for (const db of [authDatabase, ticketsDatabase, whatsappDatabase]) await runMigrations(db(TEST_DATABASE_URL));
  const services = await startMessagePath();
  running.push(...Object.values(services));
  const gateway = services['messaging-gateway'];
  http = new HttpClient(gateway.url, { 'x-forwarded-for': randomIp() });
  product = new Product(http, gateway.url);
  gatewayUrl = gateway.url;
});

/** A stored file as a signed-in user downloads it: status and bytes. */
async function download(path: string, token: string): Promise<{ status: number; bytes: Buffer; type: string | null }> {
  const res = await fetch(`${gatewayUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()), type: res.headers.get('content-type') };
}

afterAll(async () => {
  await stopProcesses(running);
});

describe('the message path through the gateway', () => {
  it('an inbound sandbox message becomes a pending ticket seen live; accepted, answered (acked), returned, resolved, reopened', async () => {
    const a = await product.newCompany('Path Co');
    const queue = await http.post('/queue', { token: a.token, body: { name: 'Atendimento', color: '#123456' } });
    expect(queue.status).toBe(201);
    const conn = await product.connectedSandbox(a.token, queue.body.id);
    const live = await product.socketOf(a.token);
    live.socket.emit('joinTickets', 'pending');
    live.socket.emit('joinNotification');

    const from = `5511${Date.now().toString().slice(-9)}`;
    const first = await http.post(`/whatsappsession/${conn.id}/sandbox/inbound`, {
      token: a.token,
      body: { from, name: 'Maria', body: 'Olá' },
    });
    expect(first.status).toBeLessThan(300);
    const seen = await waitFor(async () =>
      live.events.find((e) => e.name === `company-${a.user.companyId}-ticket` && e.payload.ticket?.contact?.number === from),
    );
    expect(seen.payload).toMatchObject({ action: 'update', ticket: { status: 'pending', unreadMessages: 1, queueId: queue.body.id } });
    const ticketId = seen.payload.ticket.id as number;
    expect(
      live.events.some(
        (e) => e.name === `company-${a.user.companyId}-appMessage` && e.payload.action === 'create' && e.payload.message.body === 'Olá',
      ),
    ).toBe(true);

    await http.post(`/whatsappsession/${conn.id}/sandbox/inbound`, {
      token: a.token,
      body: { from, name: 'Maria', body: 'Tem alguém aí?' },
    });
    const second = await waitFor(async () => {
      const t = (await http.get(`/tickets/${ticketId}`, { token: a.token })).body;
      return t.unreadMessages === 2 ? t : undefined;
    });
    expect(second).toMatchObject({ id: ticketId, status: 'pending', lastMessage: 'Tem alguém aí?' });

    const accepted = await http.put(`/tickets/${ticketId}`, { token: a.token, body: { status: 'open' } });
    expect(accepted.body).toMatchObject({ status: 'open', userId: a.user.id });
    const reply = await http.post(`/messages/${ticketId}`, { token: a.token, body: { body: '*Path Co Admin:*\nOlá Maria!' } });
    expect(reply.status).toBe(201);
    expect(reply.body.ack).toBe(0);
    const outbox = await waitFor(async () => {
      const res = await http.get(`/whatsappsession/${conn.id}/sandbox/outbox`, { token: a.token });
      return res.body.items?.find((i: { waMessageId: string }) => i.waMessageId === reply.body.wid);
    });
    expect(outbox).toMatchObject({ to: from, body: '*Path Co Admin:*\nOlá Maria!' });
    const acked = await waitFor(async () => {
      const page = await http.get(`/messages/${ticketId}`, { token: a.token });
      const m = page.body.messages.find((x: { id: number }) => x.id === reply.body.id);
      return m && m.ack >= 3 ? m : undefined;
    });
    expect(acked.ack).toBeGreaterThanOrEqual(3);
    await waitFor(async () =>
      live.events.some(
        (e) =>
          e.name === `company-${a.user.companyId}-appMessage` &&
          e.payload.action === 'update' &&
          e.payload.message.id === reply.body.id &&
          e.payload.message.ack >= 3,
      ),
    );

    expect((await http.put(`/tickets/${ticketId}`, { token: a.token, body: { status: 'pending' } })).body).toMatchObject({
      status: 'pending',
      userId: null,
    });
    await http.put(`/tickets/${ticketId}`, { token: a.token, body: { status: 'open' } });
    expect((await http.put(`/tickets/${ticketId}`, { token: a.token, body: { status: 'closed' } })).body.status).toBe('closed');
    expect((await http.put(`/tickets/${ticketId}`, { token: a.token, body: { status: 'open' } })).body).toMatchObject({
      status: 'open',
      userId: a.user.id,
    });

    // someone else holds it now: a colleague's new ticket for the contact is refused, naming the holder
    const colleague = await product.agentOf(a.token, [queue.body.id]);
    const conflict = await http.post('/tickets', {
      token: colleague.token,
      body: { contactId: second.contactId, queueId: queue.body.id, whatsappId: conn.id },
    });
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({
      error: 'ERR_OTHER_OPEN_TICKET',
      userId: a.user.id,
      userName: 'Path Co Admin',
      queueName: 'Atendimento',
    });
    live.socket.close();
  });

  it('keeps one customer one conversation whatever WhatsApp calls them: a bare LID shows no number and is answered at the LID; the mapping merges it into the number', async () => {
    const a = await product.newCompany('LID Co');
    const queue = await http.post('/queue', { token: a.token, body: { name: 'LIDs', color: '#345678' } });
    const conn = await product.connectedSandbox(a.token, queue.body.id);
    const pn = `55119${Date.now().toString().slice(-8)}`;
    const lid = `${Date.now().toString().slice(-9)}${Math.floor(Math.random() * 1e6)}`;
    const inbound = (body: Record<string, unknown>) => http.post(`/whatsappsession/${conn.id}/sandbox/inbound`, { token: a.token, body });
    const ticketWhere = (pred: (t: { contact: { number: string }; lastMessage: string }) => boolean) =>
      waitFor(async () => ((await http.get('/tickets?showAll=true&status=pending', { token: a.token })).body.tickets ?? []).find(pred));

    // the customer writes by number, then WhatsApp moves the chat to their LID and hides the number
    expect((await inbound({ from: pn, name: 'Lia', body: 'pelo número' })).status).toBe(202);
    const byNumber = await ticketWhere((t) => t.contact.number === pn);
    expect((await inbound({ fromLid: lid, name: 'Lia', body: 'pelo LID' })).status).toBe(202);
    const byLid = await ticketWhere((t) => t.lastMessage === 'pelo LID');
    expect(byLid.contact).toMatchObject({ number: '', name: 'Lia' });
    expect(byLid.id).not.toBe(byNumber.id);

    // the agent answers the LID's conversation: the phone sends to the LID
    expect((await http.put(`/tickets/${byLid.id}`, { token: a.token, body: { status: 'open' } })).status).toBe(200);
    const reply = await http.post(`/messages/${byLid.id}`, { token: a.token, body: { body: 'Olá, Lia!' } });
    expect(reply.status).toBe(201);
    const sent = await waitFor(async () =>
      ((await http.get(`/whatsappsession/${conn.id}/sandbox/outbox`, { token: a.token })).body.items ?? []).find((i: { body: string }) =>
        i.body.endsWith('Olá, Lia!'),
      ),
    );
    expect(sent.to).toBe(`${lid}@lid`);

    // WhatsApp tells which number the LID stands for: one contact, one conversation with all three messages
    expect((await http.post(`/whatsappsession/${conn.id}/sandbox/lid-mapping`, { token: a.token, body: { lid, pn } })).status).toBe(200);
    await waitFor(async () => ((await http.get(`/tickets/${byLid.id}`, { token: a.token })).status === 404 ? true : undefined));
    const merged = await http.get(`/messages/${byNumber.id}`, { token: a.token });
    expect(merged.body.messages.map((m: { body: string }) => m.body)).toEqual([
      'pelo número',
      'pelo LID',
      expect.stringContaining('Olá, Lia!'),
    ]);
    const contacts = await http.get(`/contacts?searchParam=${pn}`, { token: a.token });
    expect(contacts.body.contacts).toEqual([expect.objectContaining({ number: pn, lid })]);

    // later the bare LID writes again: it is the same conversation
    expect((await inbound({ fromLid: lid, body: 'de novo pelo LID' })).status).toBe(202);
    // (WhatsApp's clock counts seconds: within the reply's second it may sort before it, so it is looked for, not last)
    await waitFor(async () =>
      ((await http.get(`/messages/${byNumber.id}`, { token: a.token })).body.messages ?? []).some(
        (m: { body: string }) => m.body === 'de novo pelo LID',
      )
        ? true
        : undefined,
    );
    expect((await http.get(`/contacts?searchParam=${pn}`, { token: a.token })).body.contacts).toHaveLength(1);
  });

  it("keeps companies apart: B gets 403/404 for A's records, sees none in lists, cannot send on A's connection nor receive A's events", async () => {
    const a = await product.newCompany('Iso A');
    const b = await product.newCompany('Iso B');
    const qa = (await http.post('/queue', { token: a.token, body: { name: 'Fila A', color: '#aa0000' } })).body;
    const conn = await product.connectedSandbox(a.token, qa.id);
    const liveB = await product.socketOf(b.token);
    liveB.socket.emit('joinTickets', 'pending');
    liveB.socket.emit('joinNotification');
    const liveA = await product.socketOf(a.token);
    const from = `5521${Date.now().toString().slice(-9)}`;
    await http.post(`/whatsappsession/${conn.id}/sandbox/inbound`, {
      token: a.token,
      body: { from, name: 'Cliente A', body: 'dado sigiloso' },
    });
    const ticket = await waitFor(
      async () =>
        liveA.events.find((e) => e.name === `company-${a.user.companyId}-ticket` && e.payload.ticket?.contact?.number === from)?.payload
          .ticket,
    );

    for (const path of [`/tickets/${ticket.id}`, `/messages/${ticket.id}`, `/queue/${qa.id}`, `/whatsapp/${conn.id}`]) {
      expect([403, 404]).toContain((await http.get(path, { token: b.token })).status);
    }
    expect([403, 404]).toContain((await http.post(`/messages/${ticket.id}`, { token: b.token, body: { body: 'intruso' } })).status);
    expect([403, 404]).toContain(
      (await http.post(`/whatsappsession/${conn.id}/sandbox/inbound`, { token: b.token, body: { from: '5511999990000', body: 'x' } }))
        .status,
    );
    expect([403, 404]).toContain((await http.put(`/whatsapp/${conn.id}`, { token: b.token, body: { name: 'Roubada' } })).status);
    expect([403, 404]).toContain((await http.delete(`/whatsappsession/${conn.id}`, { token: b.token })).status);
    expect((await http.get('/tickets?showAll=true', { token: b.token })).body.tickets).toEqual([]);
    expect((await http.get('/queue', { token: b.token })).body).toEqual([]);
    expect((await http.get('/whatsapp', { token: b.token })).body.map((w: { id: number }) => w.id)).not.toContain(conn.id);
    // B cannot follow A's chat
    const refused = await liveB.socket.timeout(5000).emitWithAck('joinChatBox', ticket.id);
    expect(refused.ok).toBe(false);
    await new Promise((r) => setTimeout(r, 500));
    expect(liveB.events.filter((e) => String(e.name).startsWith(`company-${a.user.companyId}-`))).toEqual([]);
    expect(liveB.events.some((e) => JSON.stringify(e.payload ?? '').includes('dado sigiloso'))).toBe(false);
    liveA.socket.close();
    liveB.socket.close();
  });

  it('answers bad input on every route with 4xx and a JSON error body, never a 500, and writes nothing', async () => {
    const a = await product.newCompany('Bad Input Co');
    const queue = (await http.post('/queue', { token: a.token, body: { name: 'Fila', color: '#0a0b0c' } })).body;
    const conn = await product.connectedSandbox(a.token, queue.id);
    const from = `5531${Date.now().toString().slice(-9)}`;
    await http.post(`/whatsappsession/${conn.id}/sandbox/inbound`, { token: a.token, body: { from, name: 'Cliente', body: 'oi' } });
    const ticket = await waitFor(
      async () => (await http.get(`/tickets?showAll=true&searchParam=${from}`, { token: a.token })).body.tickets?.[0],
    );
    const snapshot = async () => ({
      queues: (await http.get('/queue', { token: a.token })).body.length,
      connections: (await http.get('/whatsapp', { token: a.token })).body.length,
      tickets: (await http.get('/tickets?showAll=true', { token: a.token })).body.tickets.length,
      messages: (await http.get(`/messages/${ticket.id}`, { token: a.token })).body.messages.length,
      ticket: (({ status, userId, queueId }) => ({ status, userId, queueId }))(
        (await http.get(`/tickets/${ticket.id}`, { token: a.token })).body,
      ),
    });
    const before = await snapshot();
    const big = JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) });
    const malformed = '{"name": "x",';
    const cases: Array<[string, string, { body?: unknown; rawBody?: string }]> = [];
    const writes: Array<[string, string, unknown, unknown]> = [
      // method, path, a body with a missing required field, a body with wrong types
      ['POST', '/queue', { color: '#111111' }, { name: 42, color: ['red'] }],
      ['PUT', `/queue/${queue.id}`, undefined, { name: { a: 1 }, orderQueue: 'first' }],
      ['POST', '/whatsapp', { isDefault: false }, { name: 7, queueIds: 'all', isDefault: 'yes' }],
      ['PUT', `/whatsapp/${conn.id}`, undefined, { name: [], maxUseBotQueues: 'many' }],
      ['POST', `/whatsappsession/${conn.id}/sandbox/inbound`, { from }, { from: 5511, body: { text: 'x' } }],
      [
        'POST',
        `/whatsappsession/${conn.id}/sandbox/inbound/batch`,
        { messages: [] },
        {
          messages: [
            { from, body: 'ok' },
            { from: 5511, body: 'x' },
          ],
        },
      ],
      ['POST', '/tickets', { queueId: queue.id }, { contactId: 'abc', queueId: [1] }],
      ['PUT', `/tickets/${ticket.id}`, undefined, { status: 'bogus', userId: 'me' }],
      ['POST', `/messages/${ticket.id}`, {}, { body: 123 }],
    ];
    for (const [method, path, missing, wrong] of writes) {
      cases.push([method, path, { rawBody: malformed }], [method, path, { body: wrong }], [method, path, { rawBody: big }]);
      if (missing !== undefined) cases.push([method, path, { body: missing }]);
    }
    for (const path of [
      '/queue/abc',
      '/whatsapp/abc',
      '/tickets/abc',
      '/messages/abc',
      '/tickets/u/not-a-uuid',
      '/whatsappsession/abc/sandbox/outbox',
      '/tickets?pageNumber=abc',
      '/tickets?status=bogus',
      '/tickets?queueIds=[x]',
      `/messages/${ticket.id}?pageNumber=-1`,
      `/whatsappsession/${conn.id}/sandbox/outbox?pageNumber=zero`,
    ]) {
      cases.push(['GET', path, {}]);
    }
    for (const [method, path] of [
      ['PUT', '/queue/abc'],
      ['DELETE', '/queue/abc'],
      ['PUT', '/whatsapp/abc'],
      ['DELETE', '/whatsapp/abc'],
      ['POST', '/whatsappsession/abc'],
      ['POST', '/whatsappsession/abc/sandbox/inbound/batch'],
      ['PUT', '/whatsappsession/abc'],
      ['DELETE', '/whatsappsession/abc'],
      ['PUT', '/tickets/abc'],
      ['DELETE', '/tickets/abc'],
      ['POST', '/messages/abc'],
    ] as const) {
      cases.push([method, path, { body: {} }]);
    }
    const failures: string[] = [];
    for (const [method, path, opts] of cases) {
      const res = await http.request(method, path, { token: a.token, ...opts });
      const ok = res.status >= 400 && res.status < 500 && typeof res.body === 'object' && /^ERR_/.test(res.body?.error ?? '');
      if (!ok)
        failures.push(
          `${method} ${path} ${opts.rawBody === big ? '(oversized)' : JSON.stringify(opts.body ?? opts.rawBody ?? '').slice(0, 60)} → ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`,
        );
    }
    expect(failures).toEqual([]);
    expect(cases.length).toBeGreaterThan(40);
    expect(await snapshot()).toEqual(before);
  });
});

describe('internal chat (/chats)', () => {
  it('a chat is seen and heard live only by its members; unread counts rise and clear; only its owner changes or deletes it; bad input is refused', async () => {
    const a = await product.newCompany('Chat Interno');
    const b = await product.newCompany('Chat Outra');
    const ana = await product.agentOf(a.token, []);
    const caio = await product.agentOf(a.token, []);
    const outsider = await product.agentOf(b.token, []);
    const anaLive = await product.socketOf(ana.token);
    const caioLive = await product.socketOf(caio.token);
    try {
      const bad = async (body: Record<string, unknown>) => {
        const res = await http.post('/chats', { token: a.token, body });
        expect(res.status).toBe(400);
        return JSON.stringify(res.body);
      };
      expect(await bad({ title: '  ', users: [{ id: ana.id }] })).toContain('Por favor, preencha o título da conversa.');
      expect(await bad({ title: 'Plantão', users: [] })).toContain('Por favor, selecione pelo menos um usuário.');
      expect(await bad({ title: 'Plantão', users: [{ id: outsider.id }] })).toContain('Nenhum usuário encontrado com este ID.');

      const made = await http.post('/chats', { token: a.token, body: { title: 'Plantão', users: [{ id: ana.id }] } });
      expect(made.status).toBe(201);
      const chat = made.body as { id: number; uuid: string; ownerId: number; users: Array<{ userId: number; unreads: number }> };
      expect(chat.users.map((u) => u.userId).sort()).toEqual([a.user.id, ana.id].sort());
      await waitFor(async () =>
        anaLive.events.find(
          (e) => e.name === `company-${a.user.companyId}-chat` && e.payload.action === 'update' && e.payload.chat.id === chat.id,
        ),
      );

      const sent = await http.post(`/chats/${chat.id}/messages`, { token: a.token, body: { message: '  Alguém no plantão?  ' } });
      expect(sent.status).toBe(201);
      expect(sent.body).toMatchObject({ chatId: chat.id, message: 'Alguém no plantão?', senderId: a.user.id });
      const heard = await waitFor(async () =>
        anaLive.events.find((e) => e.payload?.action === 'new-message' && e.payload.newMessage?.id === sent.body.id),
      );
      expect(heard.payload.chat.users.find((u: { userId: number }) => u.userId === ana.id).unreads).toBe(1);
      expect((await http.post(`/chats/${chat.id}/messages`, { token: ana.token, body: { message: '   ' } })).status).toBe(400);

      // not a member: nothing heard, nothing read, nothing listed
      expect((await http.get(`/chats/${chat.uuid}`, { token: caio.token })).status).toBe(404);
      expect((await http.get(`/chats/${chat.id}/messages`, { token: caio.token })).status).toBe(404);
      expect((await http.post(`/chats/${chat.id}/messages`, { token: caio.token, body: { message: 'oi' } })).status).toBe(404);
      expect((await http.get('/chats', { token: caio.token })).body).toMatchObject({ records: [], count: 0 });
      expect((await http.get(`/chats/${chat.id}`, { token: b.token })).status).toBe(404);
      expect(caioLive.events.filter((e) => e.name.endsWith('-chat'))).toEqual([]);

      // the member's list, by uuid too; reading clears the count
      const list = (await http.get('/chats', { token: ana.token })).body;
      expect(list).toMatchObject({ count: 1, hasMore: false, records: [{ id: chat.id, lastMessage: 'Alguém no plantão?' }] });
      expect((await http.get(`/chats/${chat.uuid}`, { token: ana.token })).body.id).toBe(chat.id);
      const read = await http.post(`/chats/${chat.id}/read`, { token: ana.token, body: { userId: ana.id } });
      expect(read.body.users.find((u: { userId: number }) => u.userId === ana.id).unreads).toBe(0);
      await http.post(`/chats/${chat.id}/messages`, { token: ana.token, body: { message: 'Eu estou.' } });
      const page = (await http.get(`/chats/${chat.id}/messages`, { token: a.token })).body;
      expect(page.records.map((m: { message: string }) => m.message)).toEqual(['Alguém no plantão?', 'Eu estou.']);

      // only the owner renames, changes members or deletes; a member taken out hears it is gone
      expect((await http.put(`/chats/${chat.id}`, { token: ana.token, body: { title: 'Meu' } })).status).toBe(403);
      expect((await http.delete(`/chats/${chat.id}`, { token: ana.token })).status).toBe(403);
      const moved = await http.put(`/chats/${chat.id}`, { token: a.token, body: { title: 'Plantão noturno', users: [{ id: caio.id }] } });
      expect(moved.body.users.map((u: { userId: number }) => u.userId).sort()).toEqual([a.user.id, caio.id].sort());
      await waitFor(async () => anaLive.events.find((e) => e.payload?.action === 'delete' && e.payload.chatId === chat.id));
      await waitFor(async () => caioLive.events.find((e) => e.payload?.action === 'update' && e.payload.chat?.title === 'Plantão noturno'));
      expect((await http.get(`/chats/${chat.id}`, { token: ana.token })).status).toBe(404);
      expect((await http.delete(`/chats/${chat.id}`, { token: a.token })).status).toBe(200);
      await waitFor(async () => caioLive.events.find((e) => e.payload?.action === 'delete' && e.payload.chatId === chat.id));
      expect((await http.get(`/chats/${chat.id}`, { token: a.token })).status).toBe(404);
    } finally {
      anaLive.socket.close();
      caioLive.socket.close();
    }
  });
});

describe('announcements (/announcements and the top bar popover)', () => {
  it('super users write them, with an image; every user of every company reads the active ones, live; inactive ones are the super users’ only; bad input is refused', async () => {
    const superToken = signAccessToken(
      { id: 1_999_999_301, companyId: 1, profile: 'admin', super: true, sid: randomUUID() },
      TEST_JWT_SECRET,
    );
    const a = await product.newCompany('Avisos Um');
    const b = await product.newCompany('Avisos Dois');
    const agent = await product.agentOf(b.token, []);
    const aLive = await product.socketOf(a.token);
    const agentLive = await product.socketOf(agent.token);
    try {
      // only super users write
      expect((await http.post('/announcements', { token: a.token, body: { title: 'Meu', text: 'aviso' } })).status).toBe(403);
      const bad = async (body: Record<string, unknown>) => {
        const res = await http.post('/announcements', { token: superToken, body });
        expect(res.status).toBe(400);
        return JSON.stringify(res.body);
      };
      expect(await bad({ text: 'sem título' })).toContain('Obrigatório');
      expect(await bad({ title: 'Sem texto', text: '   ' })).toContain('Obrigatório');
      expect(await bad({ title: 'Prioridade', text: 'x', priority: 5 })).toContain('priority');

      const title = `Manutenção ${uniqueSuffix()}`;
      const made = await http.post('/announcements', {
        token: superToken,
        body: { title, text: 'Sábado às 22h o sistema fica fora por 10 minutos.' },
      });
      expect(made.status).toBe(201);
      // spec 02 §9: priority 3 (low) and active by default
      expect(made.body).toMatchObject({ title, priority: 3, status: true, mediaPath: null, mediaUrl: null });
      const id = made.body.id as number;
      // every socket of every company hears it
      for (const live of [aLive, agentLive]) {
        await waitFor(async () =>
          live.events.find((e) => e.name === 'company-announcement' && e.payload.action === 'update' && e.payload.announcement.id === id),
        );
      }
      const listed = (await http.get(`/announcements?searchParam=${encodeURIComponent(title)}`, { token: agent.token })).body;
      expect(listed).toMatchObject({ count: 1, hasMore: false, records: [{ id, title }] });

      // the image: a PNG by its bytes; anything else refused
      const png = pngFile({ size: 6, rgb: [200, 20, 20] });
      const refused = await http.post(`/announcements/${id}/media-upload`, {
        token: superToken,
        form: form([{ field: 'file', name: 'aviso.pdf', data: pdfFile() }]),
      });
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.body)).toContain('.png, .jpg ou .jpeg');
      expect(
        (
          await http.post(`/announcements/${id}/media-upload`, {
            token: a.token,
            form: form([{ field: 'file', name: 'aviso.png', data: png }]),
          })
        ).status,
      ).toBe(403);
      const withImage = await http.post(`/announcements/${id}/media-upload`, {
        token: superToken,
        form: form([{ field: 'file', name: 'aviso.png', data: png }]),
      });
      expect(withImage.status).toBe(200);
      expect(withImage.body).toMatchObject({ mediaName: 'aviso.png', mediaUrl: `/announcements/${id}/media` });
      // another company's agent sees the image, byte for byte
      const image = await download(`/announcements/${id}/media`, agent.token);
      expect(image).toMatchObject({ status: 200, type: 'image/png' });
      expect(image.bytes.equals(png)).toBe(true);

      // made inactive: gone for everyone but super users (list, read, image), live: their sockets hear it as a
      // deletion, and never get the inactive announcement itself
      const off = await http.put(`/announcements/${id}`, { token: superToken, body: { status: false, priority: 1 } });
      expect(off.body).toMatchObject({ status: false, priority: 1, title });
      const deletions = (live: typeof aLive) =>
        live.events.filter((e) => e.name === 'company-announcement' && e.payload?.action === 'delete' && e.payload.announcementId === id)
          .length;
      for (const live of [aLive, agentLive]) await waitFor(async () => deletions(live) === 1 || undefined);
      expect(agentLive.events.some((e) => e.payload?.announcement?.id === id && e.payload.announcement.status === false)).toBe(false);
      expect((await http.get(`/announcements?searchParam=${encodeURIComponent(title)}`, { token: agent.token })).body.count).toBe(0);
      expect((await http.get(`/announcements/${id}`, { token: a.token })).status).toBe(404);
      expect((await download(`/announcements/${id}/media`, agent.token)).status).toBe(404);
      expect(
        (await http.get(`/announcements?searchParam=${encodeURIComponent(title)}`, { token: superToken })).body.records[0],
      ).toMatchObject({ id, status: false });
      expect((await http.put(`/announcements/${id}`, { token: a.token, body: { status: true } })).status).toBe(403);

      // the image removed, then the announcement
      expect((await http.delete(`/announcements/${id}/media-upload`, { token: superToken })).body).toMatchObject({
        mediaPath: null,
        mediaUrl: null,
      });
      expect((await http.delete(`/announcements/${id}`, { token: a.token })).status).toBe(403);
      expect((await http.delete(`/announcements/${id}`, { token: superToken })).status).toBe(200);
      await waitFor(async () => deletions(aLive) === 2 || undefined);
      expect((await http.get(`/announcements/${id}`, { token: superToken })).status).toBe(404);
      expect((await http.put(`/announcements/${id}`, { token: superToken, body: { title: 'x' } })).status).toBe(404);
    } finally {
      aLive.socket.close();
      agentLive.socket.close();
    }
  });
});

describe('file lists (/files)', () => {
  it('admins make lists of files (each option’s file checked by its bytes), change and delete them; the company reads them live; another company sees nothing', async () => {
    const a = await product.newCompany('Arquivos Um');
    const b = await product.newCompany('Arquivos Dois');
    const agent = await product.agentOf(a.token, []);
    const aLive = await product.socketOf(agent.token);
    const bLive = await product.socketOf(b.token);
    try {
      const bad = async (body: Record<string, unknown>) => {
        const res = await http.post('/files', { token: a.token, body });
        expect(res.status).toBe(400);
        return JSON.stringify(res.body);
      };
      expect(await bad({ name: 'ab', message: 'oi' })).toContain('nome muito curto');
      expect(await bad({ name: 'Catálogo', message: '  ' })).toContain('Obrigatório');
      expect(await bad({ name: 'Catálogo', message: 'oi', options: [{ name: '' }] })).toContain('Obrigatório');
      expect((await http.post('/files', { token: agent.token, body: { name: 'Do agente', message: 'oi' } })).status).toBe(403);

      const made = await http.post('/files', {
        token: a.token,
        body: { name: 'Catálogo 2026', message: 'Segue o catálogo', options: [{ name: 'Capa' }, { name: 'Tabela' }] },
      });
      expect(made.status).toBe(201);
      const list = made.body as { id: number; options: Array<{ id: number; name: string; file: string | null }> };
      expect(list.options.map((o) => [o.name, o.file])).toEqual([
        ['Capa', null],
        ['Tabela', null],
      ]);
      expect((await http.post('/files', { token: a.token, body: { name: 'CATÁLOGO 2026', message: 'de novo' } })).status).toBe(400);
      await waitFor(async () =>
        aLive.events.find(
          (e) => e.name === `company-${a.user.companyId}-files` && e.payload.action === 'update' && e.payload.fileList.id === list.id,
        ),
      );

      // the files, one per option, in order
      const png = pngFile({ size: 4, rgb: [1, 2, 3] });
      const pdf = pdfFile('Tabela de preços');
      const upload = (token: string, files: Array<{ name: string; data: Buffer }>, ids: number[]) =>
        http.post(`/files/uploadList/${list.id}`, {
          token,
          form: form(
            files.map((f) => ({ field: 'files', ...f })),
            [...ids.map((id) => ['id', String(id)] as [string, string]), ['typeArch', 'fileList']],
          ),
        });
      const notAFile = await upload(
        a.token,
        [
          { name: 'capa.png', data: png },
          { name: 'virus.png', data: Buffer.from('MZ\x90\x00 not a picture at all') },
        ],
        [list.options[0]!.id, list.options[1]!.id],
      );
      expect(notAFile.status).toBe(400);
      expect(
        (await http.get(`/files/${list.id}`, { token: a.token })).body.options.every((o: { file: string | null }) => o.file === null),
      ).toBe(true);
      expect((await upload(a.token, [{ name: 'capa.png', data: png }], [987654])).status).toBe(400);
      expect((await upload(agent.token, [{ name: 'capa.png', data: png }], [list.options[0]!.id])).status).toBe(403);
      const uploaded = await upload(
        a.token,
        [
          { name: 'capa.png', data: png },
          { name: 'tabela.pdf', data: pdf },
        ],
        [list.options[0]!.id, list.options[1]!.id],
      );
      expect(uploaded.status).toBe(200);
      const [capa, tabela] = uploaded.body.options as Array<{ id: number; file: string; mediaType: string }>;
      expect([capa!.mediaType, tabela!.mediaType]).toEqual(['image/png', 'application/pdf']);
      // the company's users read them (the agent too); another company does not
      expect((await download(capa!.file, agent.token)).bytes.equals(png)).toBe(true);
      expect((await download(tabela!.file, agent.token)).bytes.equals(pdf)).toBe(true);
      expect((await download(capa!.file, b.token)).status).toBe(404);
      expect((await http.get(`/files/${list.id}`, { token: b.token })).status).toBe(404);
      expect((await http.put(`/files/${list.id}`, { token: b.token, body: { name: 'Roubado' } })).status).toBe(404);
      expect((await http.get('/files', { token: b.token })).body).toMatchObject({ files: [], count: 0 });
      expect((await http.get(`/files?searchParam=${encodeURIComponent('catálogo')}`, { token: agent.token })).body).toMatchObject({
        count: 1,
        hasMore: false,
        files: [{ id: list.id }],
      });
      expect(bLive.events.filter((e) => e.name.endsWith('-files'))).toEqual([]);

      // an option left out goes with its file; a new one comes in its place
      const changed = await http.put(`/files/${list.id}`, {
        token: a.token,
        body: { name: 'Catálogo 2027', options: [{ id: tabela!.id, name: 'Preços' }, { name: 'Contrato' }] },
      });
      expect(changed.status).toBe(200);
      expect(changed.body.options.map((o: { id: number; name: string; file: string | null }) => [o.name, o.file !== null])).toEqual([
        ['Preços', true],
        ['Contrato', false],
      ]);
      expect(changed.body.message).toBe('Segue o catálogo');
      await waitFor(async () => ((await download(capa!.file, a.token)).status === 404 ? true : undefined));
      expect((await http.put(`/files/${list.id}`, { token: a.token, body: { options: [{ id: 987654, name: 'x' }] } })).status).toBe(400);

      expect((await http.delete(`/files/${list.id}`, { token: agent.token })).status).toBe(403);
      expect((await http.delete(`/files/${list.id}`, { token: a.token })).status).toBe(200);
      await waitFor(async () => aLive.events.find((e) => e.payload?.action === 'delete' && e.payload.fileListId === list.id));
      expect((await http.get(`/files/${list.id}`, { token: a.token })).status).toBe(404);
      await waitFor(async () => ((await download(tabela!.file, a.token)).status === 404 ? true : undefined));
    } finally {
      aLive.socket.close();
      bLive.socket.close();
    }
  });
});

describe('a company deleted or disabled', () => {
  it('ends its users’ live sockets at once (deleted) and at once (disabled), and lets no new one in', async () => {
    const superToken = signAccessToken(
      { id: 1_999_999_302, companyId: 1, profile: 'admin', super: true, sid: randomUUID() },
      TEST_JWT_SECRET,
    );
    const gone = await product.newCompany('Some Já');
    const off = await product.newCompany('Desliga Já');
    const goneLive = await product.socketOf(gone.token);
    const offLive = await product.socketOf(off.token);
    const ended = (s: { socket: { connected: boolean } }) =>
      waitFor(async () => (s.socket.connected ? undefined : true), { timeoutMs: 10_000 });
    try {
      expect((await http.delete(`/companies/${gone.user.companyId}`, { token: superToken })).status).toBe(200);
      await ended(goneLive);
      expect((await http.put(`/companies/${off.user.companyId}`, { token: superToken, body: { status: false } })).status).toBe(200);
      await ended(offLive);
      await expect(product.socketOf(gone.token)).rejects.toBeTruthy();
      await expect(product.socketOf(off.token)).rejects.toBeTruthy();
    } finally {
      goneLive.socket.close();
      offLive.socket.close();
    }
  });
});

describe('settings (/settings, tab Opcoes)', () => {
  it('a change reaches every socket of the company live; the integration tokens are stored encrypted and never answered or announced whole', async () => {
    const a = await product.newCompany('Ajustes Um');
    const b = await product.newCompany('Ajustes Dois');
    const agent = await product.agentOf(a.token, []);
    const agentLive = await product.socketOf(agent.token);
    const bLive = await product.socketOf(b.token);
    const auth = createDataSource(authDatabase(TEST_DATABASE_URL, 1));
    await auth.initialize();
    try {
      // every key of spec 02 §3, the integrations' empty
      const keys = ((await http.get('/settings', { token: a.token })).body as Array<{ key: string; value: string }>).map((s) => s.key);
      expect(keys).toEqual(
        expect.arrayContaining([
          'userRating',
          'scheduleType',
          'chatBotType',
          'ipixc',
          'tokenixc',
          'ipmkauth',
          'clientidmkauth',
          'clientsecretmkauth',
          'asaas',
        ]),
      );

      expect((await http.put('/settings/userRating', { token: a.token, body: { value: 'enabled' } })).body).toEqual({
        key: 'userRating',
        value: 'enabled',
      });
      await waitFor(async () =>
        agentLive.events.find(
          (e) =>
            e.name === `company-${a.user.companyId}-settings` &&
            e.payload.setting.key === 'userRating' &&
            e.payload.setting.value === 'enabled',
        ),
      );

      const secret = 'sk_live_0123456789abcdef';
      const put = await http.put('/settings/asaas', { token: a.token, body: { value: secret } });
      expect(put.body).toEqual({ key: 'asaas', value: '••••cdef' });
      const [row] = await auth.query(`SELECT value FROM auth.settings WHERE "companyId" = $1 AND key = 'asaas'`, [a.user.companyId]);
      expect(row.value).not.toContain(secret);
      expect(row.value).not.toContain('cdef');
      const listed = (await http.get('/settings', { token: a.token })).body as Array<{ key: string; value: string }>;
      expect(listed.find((s) => s.key === 'asaas')?.value).toBe('••••cdef');
      const heard = await waitFor(async () =>
        agentLive.events.find((e) => e.name.endsWith('-settings') && e.payload.setting.key === 'asaas'),
      );
      expect(heard.payload.setting.value).toBe('••••cdef');
      // the signed-in user's company view shows it only as set
      const me = (await http.get('/auth/me', { token: agent.token })).body;
      expect(JSON.stringify(me)).not.toContain(secret);
      // sent back as shown, it stays; emptied, it is gone
      expect((await http.put('/settings/asaas', { token: a.token, body: { value: '••••cdef' } })).body.value).toBe('••••cdef');
      expect(
        (await auth.query(`SELECT value FROM auth.settings WHERE "companyId" = $1 AND key = 'asaas'`, [a.user.companyId]))[0].value,
      ).toBe(row.value);
      expect((await http.put('/settings/asaas', { token: a.token, body: { value: '' } })).body).toEqual({ key: 'asaas', value: '' });
      // an address is no secret
      expect((await http.put('/settings/ipixc', { token: a.token, body: { value: 'https://ixc.example.com' } })).body.value).toBe(
        'https://ixc.example.com',
      );

      // agents do not change settings; unknown keys and bad values are refused; another company hears nothing
      expect((await http.put('/settings/userRating', { token: agent.token, body: { value: 'disabled' } })).status).toBe(403);
      expect((await http.put('/settings/naoExiste', { token: a.token, body: { value: 'x' } })).status).toBe(404);
      expect((await http.put('/settings/userRating', { token: a.token, body: { value: 42 } })).status).toBe(400);
      expect(bLive.events.filter((e) => e.name.endsWith('-settings'))).toEqual([]);
    } finally {
      await auth.destroy();
      agentLive.socket.close();
      bLive.socket.close();
    }
  });
});

/** A multipart body: files, then plain fields (a field may repeat). */
function form(files: Array<{ field: string; name: string; data: Buffer }>, fields: Array<[string, string]> = []): FormData {
  const body = new FormData();
  for (const [k, v] of fields) body.append(k, v);
  for (const f of files) body.append(f.field, new Blob([new Uint8Array(f.data)]), f.name);
  return body;
}

describe('an undecryptable message through the gateway', () => {
  it("is shown waiting in its own ticket, then the phone's resend replaces it in place, live (appMessage update) and in the ticket's last message", async () => {
    const a = await product.newCompany('Cifra Co');
    const queue = await http.post('/queue', { token: a.token, body: { name: 'Cifra', color: '#456789' } });
    const conn = await product.connectedSandbox(a.token, queue.body.id);
    const live = await product.socketOf(a.token);
    live.socket.emit('joinTickets', 'pending');
    try {
      const from = `55218${Date.now().toString().slice(-8)}`;
      const id = `3EB0CIFRA${Date.now()}`;
      const inbound = (body: Record<string, unknown>) => http.post(`/whatsappsession/${conn.id}/sandbox/inbound`, { token: a.token, body });

      // what Baileys emits for a message it could not decrypt: a ticket opens with the message waiting
      expect((await inbound({ from, name: 'Rui', id, undecryptable: true })).status).toBe(202);
      // its last message: WhatsApp's waiting text (written right after the message is stored)
      const ticket = await waitFor(async () =>
        ((await http.get('/tickets?showAll=true&status=pending', { token: a.token })).body.tickets ?? []).find(
          (t: { contact: { number: string }; lastMessage: string }) =>
            t.contact.number === from && t.lastMessage === WAITING_MESSAGE_PREVIEW,
        ),
      );
      const before = (await http.get(`/messages/${ticket.id}`, { token: a.token })).body.messages;
      expect(before).toHaveLength(1);
      expect(before[0]).toMatchObject({ wid: id, body: '', mediaType: 'ciphertext' });

      // the phone's resend: the same message, its text
      expect((await inbound({ from, name: 'Rui', id, body: 'segunda via, por favor' })).status).toBe(202);
      const updated = await waitFor(async () =>
        live.events.find(
          (e) =>
            e.name === `company-${a.user.companyId}-appMessage` && e.payload.action === 'update' && e.payload.message?.id === before[0].id,
        ),
      );
      expect(updated.payload.message).toMatchObject({ wid: id, body: 'segunda via, por favor', mediaType: 'chat' });
      const after = (await http.get(`/messages/${ticket.id}`, { token: a.token })).body.messages;
      expect(after.map((m: { id: number; body: string }) => [m.id, m.body])).toEqual([[before[0].id, 'segunda via, por favor']]);
      expect((await http.get(`/tickets/${ticket.id}`, { token: a.token })).body.lastMessage).toBe('segunda via, por favor');
    } finally {
      live.socket.close();
    }
  });
});

describe('presence both ways (issue 45 §5)', () => {
  it("the customer's typing and recording reach the ticket's chat box; the agent's typing reaches the customer, throttled", async () => {
    const a = await product.newCompany('Presence Co');
    const queue = await http.post('/queue', { token: a.token, body: { name: 'Atendimento', color: '#123456' } });
    const conn = await product.connectedSandbox(a.token, queue.body.id);
    const from = `5511${Date.now().toString().slice(-9)}`;
    await http.post(`/whatsappsession/${conn.id}/sandbox/inbound`, { token: a.token, body: { from, name: 'Joana', body: 'Oi' } });
    const ticket = await waitFor(async () => {
      const list = await http.get('/tickets?status=pending&showAll=true', { token: a.token });
      return list.body.tickets?.find((t: { contact: { number: string } }) => t.contact.number === from);
    });
    const live = await product.socketOf(a.token);
    // another company's admin, following nothing of this company
    const b = await product.newCompany('Presence Other Co');
    const other = await product.socketOf(b.token);
    try {
      expect(await live.socket.emitWithAck('joinChatBox', ticket.id)).toEqual({ ok: true });
      const channel = `company-${a.user.companyId}-presence`;
      for (const state of ['composing', 'recording', 'paused']) {
        expect((await http.post(`/whatsappsession/${conn.id}/sandbox/presence`, { token: a.token, body: { from, state } })).status).toBe(
          204,
        );
      }
      await waitFor(async () => live.events.filter((e) => e.name === channel).length === 3);
      expect(live.events.filter((e) => e.name === channel).map((e) => e.payload)).toEqual([
        { ticketId: ticket.id, state: 'composing' },
        { ticketId: ticket.id, state: 'recording' },
        { ticketId: ticket.id, state: 'paused' },
      ]);
      // a customer with no open ticket on the connection (another area code): nobody is told
      await http.post(`/whatsappsession/${conn.id}/sandbox/presence`, {
        token: a.token,
        body: { from: `5521${from.slice(4)}`, state: 'composing' },
      });
      await new Promise((r) => setTimeout(r, 500));
      expect(live.events.filter((e) => e.name === channel)).toHaveLength(3);
      expect(other.events.some((e) => e.name.endsWith('-presence'))).toBe(false);

      // the agent types: the customer sees it once however fast the console repeats it, then the stop
      for (let i = 0; i < 3; i++)
        expect((await http.post(`/tickets/${ticket.id}/presence`, { token: a.token, body: { state: 'composing' } })).status).toBe(204);
      expect((await http.post(`/tickets/${ticket.id}/presence`, { token: a.token, body: { state: 'paused' } })).status).toBe(204);
      const told = await waitFor(async () => {
        const res = await http.get(`/whatsappsession/${conn.id}/sandbox/presence`, { token: a.token });
        return res.body.presences?.length === 2 ? res.body.presences : undefined;
      });
      expect(told.map((p: { to: string; state: string }) => [p.to, p.state])).toEqual([
        [from, 'composing'],
        [from, 'paused'],
      ]);

      // bad input, another company's ticket
      const bad = await http.post(`/tickets/${ticket.id}/presence`, { token: a.token, body: { state: 'typing' } });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ error: 'ERR_VALIDATION' });
      const foreign = await http.post(`/tickets/${ticket.id}/presence`, { token: b.token, body: { state: 'composing' } });
      expect(foreign.status).toBe(404);
      expect(foreign.body).toMatchObject({ error: 'ERR_NO_TICKET_FOUND' });
    } finally {
      live.socket.close();
      other.socket.close();
    }
  });
});
