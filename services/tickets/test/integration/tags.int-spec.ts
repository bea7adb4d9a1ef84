import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { newQueue, randomNumber, startTickets, TestCompany, ticketOfNumber, type TicketsUnderTest } from './harness.js';

let t: TicketsUnderTest;

beforeAll(async () => {
  t = await startTickets();
});

afterAll(async () => {
  await t?.close();
});

async function company() {
  const c = new TestCompany(t);
  const admin = await c.user('admin', [], 'Ana Admin');
  const queue = await newQueue(t, admin.token);
  const agent = await c.user('user', [queue.id], 'Bruno Agente');
  const conn = await c.connection({ queueIds: [queue.id] });
  return { c, admin, agent, queue, conn };
}

async function ticketIn(c: TestCompany, connId: number, token: string) {
  const from = randomNumber();
  await c.inbound(connId, from, 'oi');
  return ticketOfNumber(t, token, from) as Promise<{ id: number; uuid: string }>;
}

describe('tags (spec 01 §7, spec 02 §7: /tags, /tags/list, /tags/{id}, /tags/sync, /ticket-tags)', () => {
  it('creates, pages with ticket counts, searches, edits and deletes tags; names are unique per company', async () => {
    const { admin } = await company();
    const vip = await t.http.post('/tags', { token: admin.token, body: { name: 'VIP', color: '#ff0000', kanban: 1 } });
    expect(vip.status).toBe(201);
    expect(vip.body).toMatchObject({ name: 'VIP', color: '#ff0000', kanban: 1 });
    await t.http.post('/tags', { token: admin.token, body: { name: 'Financeiro' } });
    expect((await t.http.post('/tags', { token: admin.token, body: { name: 'vip' } })).status).toBe(400);
    const page = await t.http.get('/tags', { token: admin.token });
    expect(page.body).toMatchObject({
      hasMore: false,
      tags: [
        { name: 'Financeiro', ticketsCount: 0 },
        { name: 'VIP', ticketsCount: 0 },
      ],
    });
    expect((await t.http.get('/tags?searchParam=fin', { token: admin.token })).body.tags.map((x: { name: string }) => x.name)).toEqual([
      'Financeiro',
    ]);
    expect((await t.http.get('/tags/list', { token: admin.token })).body.map((x: { name: string }) => x.name)).toEqual([
      'Financeiro',
      'VIP',
    ]);
    const edited = await t.http.put(`/tags/${vip.body.id}`, { token: admin.token, body: { name: 'Cliente VIP', kanban: 0 } });
    expect(edited.body).toMatchObject({ id: vip.body.id, name: 'Cliente VIP', kanban: 0, color: '#ff0000' });
    expect((await t.http.get(`/tags/${vip.body.id}`, { token: admin.token })).body.name).toBe('Cliente VIP');
    expect((await t.http.delete(`/tags/${vip.body.id}`, { token: admin.token })).status).toBe(200);
    expect((await t.http.get(`/tags/${vip.body.id}`, { token: admin.token })).body.error).toBe('ERR_NO_TAG_FOUND');
  });

  it('refuses a short or missing name with the spec texts', async () => {
    const { admin } = await company();
    for (const [body, text] of [
      [{ name: 'ab' }, 'Mensagem muito curta'],
      [{}, 'Obrigatório'],
      [{ name: '' }, 'Obrigatório'],
    ] as Array<[Record<string, unknown>, string]>) {
      const res = await t.http.post('/tags', { token: admin.token, body });
      expect(res.status).toBe(400);
      expect(res.body.details.find((d: { field: string }) => d.field === 'name').messages).toContain(text);
    }
    expect((await t.http.post('/tags', { token: admin.token, body: { name: 'Boa', kanban: 2 } })).status).toBe(400);
    const tag = (await t.http.post('/tags', { token: admin.token, body: { name: 'Boa' } })).body;
    expect((await t.http.put(`/tags/${tag.id}`, { token: admin.token, body: { name: null } })).status).toBe(400);
    expect((await t.http.post('/tags', { token: admin.token, body: { name: 'Boa', color: 'url(javascript:x)' } })).status).toBe(400);
  });

  it('tags a ticket (sync, put one, clear), shows them on the ticket and announces the ticket each time', async () => {
    const { c, admin, agent, conn } = await company();
    const ticket = await ticketIn(c, conn.id, admin.token);
    const a = (await t.http.post('/tags', { token: admin.token, body: { name: 'Alpha' } })).body;
    const b = (await t.http.post('/tags', { token: admin.token, body: { name: 'Beta', color: '#00ff00' } })).body;
    const events = t.bus.connection.subscribe(`ticket.updated.${c.companyId}.${ticket.id}`, { max: 3, timeout: 10_000 });

    const synced = await t.http.post('/tags/sync', {
      token: agent.token,
      body: { ticketId: ticket.id, tags: [{ id: b.id }, { id: a.id }] },
    });
    expect(synced.status).toBe(200);
    expect(synced.body.tags).toEqual([
      { id: a.id, name: 'Alpha', color: '#A4CCCC' },
      { id: b.id, name: 'Beta', color: '#00ff00' },
    ]);
    const narrowed = await t.http.post('/tags/sync', { token: agent.token, body: { ticketId: ticket.id, tags: [{ id: b.id }] } });
    expect(narrowed.body.tags.map((x: { id: number }) => x.id)).toEqual([b.id]);
    const put = await t.http.put(`/ticket-tags/${ticket.id}/${a.id}`, { token: agent.token });
    expect(put.body.message).toBe('Ticket Tag Adicionado com Sucesso!');
    expect((await t.http.get(`/tickets/u/${ticket.uuid}`, { token: agent.token })).body.tags.map((x: { name: string }) => x.name)).toEqual([
      'Alpha',
      'Beta',
    ]);
    expect((await t.http.get('/tags', { token: admin.token })).body.tags.map((x: { ticketsCount: number }) => x.ticketsCount)).toEqual([
      1, 1,
    ]);

    const tagLists: string[][] = [];
    for await (const m of events) tagLists.push((m.json() as { ticket: { tags: Array<{ name: string }> } }).ticket.tags.map((x) => x.name));
    expect(tagLists).toEqual([['Alpha', 'Beta'], ['Beta'], ['Alpha', 'Beta']]);

    // renaming a tag announces the live tickets carrying it, with the new name
    const renamed = t.bus.connection.subscribe(`ticket.updated.${c.companyId}.${ticket.id}`, { max: 1, timeout: 10_000 });
    expect((await t.http.put(`/tags/${a.id}`, { token: admin.token, body: { name: 'Alfa', color: '#123456' } })).status).toBe(200);
    for await (const m of renamed)
      expect((m.json() as { ticket: { tags: Array<{ name: string; color: string }> } }).ticket.tags[0]).toMatchObject({
        name: 'Alfa',
        color: '#123456',
      });

    const cleared = await t.http.delete(`/ticket-tags/${ticket.id}`, { token: agent.token });
    expect(cleared.body).toMatchObject({ message: 'Ticket Tag Removido!', ticket: { tags: [] } });
    // deleting a tag takes it off its tickets
    await t.http.put(`/ticket-tags/${ticket.id}/${b.id}`, { token: agent.token });
    await t.http.delete(`/tags/${b.id}`, { token: admin.token });
    expect((await t.http.get(`/tickets/${ticket.id}`, { token: admin.token })).body.tags).toEqual([]);
  });

  it('lists tickets with their tags and filters by tags (every one selected) and, for admins, by users', async () => {
    const { c, admin, agent, conn } = await company();
    const tag = async (name: string) =>
      (await t.http.post('/tags', { token: admin.token, body: { name, color: '#112233' } })).body as { id: number };
    const [vip, late] = [await tag('VIP'), await tag('Atrasado')];
    const a = await ticketIn(c, conn.id, admin.token);
    const b = await ticketIn(c, conn.id, admin.token);
    const ab = await ticketIn(c, conn.id, admin.token);
    await ticketIn(c, conn.id, admin.token);
    await t.http.post('/tags/sync', { token: admin.token, body: { ticketId: a.id, tags: [vip] } });
    await t.http.post('/tags/sync', { token: admin.token, body: { ticketId: b.id, tags: [late] } });
    await t.http.post('/tags/sync', { token: admin.token, body: { ticketId: ab.id, tags: [vip, late] } });
    const ids = async (query: string, token = admin.token) =>
      ((await t.http.get(`/tickets?showAll=true&${query}`, { token })).body.tickets as Array<{ id: number }>).map((x) => x.id).sort();

    expect(await ids(`tags=${JSON.stringify([vip.id])}`)).toEqual([a.id, ab.id].sort());
    expect(await ids(`tags=${JSON.stringify([vip.id, late.id])}`)).toEqual([ab.id]);
    expect(await ids(`tags=${vip.id}&tags=${late.id}`)).toEqual([ab.id]);
    const listed = (await t.http.get(`/tickets?showAll=true&tags=[${late.id}]`, { token: admin.token })).body.tickets as Array<{
      id: number;
      tags: Array<{ name: string }>;
    }>;
    expect(listed.find((x) => x.id === ab.id)?.tags.map((g) => g.name)).toEqual(['Atrasado', 'VIP']);
    expect((await t.http.get('/tickets?tags=[1,"x"]', { token: admin.token })).status).toBe(400);

    // users: the agent takes one ticket; admins filter by who holds it
    expect((await t.http.put(`/tickets/${b.id}`, { token: agent.token, body: { status: 'open' } })).status).toBe(200);
    expect(await ids(`users=${JSON.stringify([agent.id])}`)).toEqual([b.id]);
    // a ticket read by id, and an event of any change, carry the tags too
    expect((await t.http.get(`/tickets/${b.id}`, { token: admin.token })).body.tags).toEqual([
      { id: late.id, name: 'Atrasado', color: '#112233' },
    ]);
  });

  it("keeps companies apart: B can neither see A's tags nor put them on its tickets, nor tag A's tickets", async () => {
    const a = await company();
    const b = await company();
    const tagA = (await t.http.post('/tags', { token: a.admin.token, body: { name: 'Segredo' } })).body;
    const ticketA = await ticketIn(a.c, a.conn.id, a.admin.token);
    const ticketB = await ticketIn(b.c, b.conn.id, b.admin.token);
    expect((await t.http.get(`/tags/${tagA.id}`, { token: b.admin.token })).status).toBe(404);
    expect((await t.http.put(`/tags/${tagA.id}`, { token: b.admin.token, body: { name: 'Roubada' } })).status).toBe(404);
    expect((await t.http.delete(`/tags/${tagA.id}`, { token: b.admin.token })).status).toBe(404);
    expect((await t.http.get('/tags/list', { token: b.admin.token })).body).toEqual([]);
    expect((await t.http.put(`/ticket-tags/${ticketB.id}/${tagA.id}`, { token: b.admin.token })).body.error).toBe('ERR_NO_TAG_FOUND');
    expect(
      (await t.http.post('/tags/sync', { token: b.admin.token, body: { ticketId: ticketB.id, tags: [{ id: tagA.id }] } })).body.error,
    ).toBe('ERR_NO_TAG_FOUND');
    expect((await t.http.put(`/ticket-tags/${ticketA.id}/${tagA.id}`, { token: b.admin.token })).body.error).toBe('ERR_NO_TICKET_FOUND');
    expect((await t.http.delete(`/ticket-tags/${ticketA.id}`, { token: b.admin.token })).body.error).toBe('ERR_NO_TICKET_FOUND');
    expect((await t.http.post('/tags/sync', { token: b.admin.token, body: { ticketId: ticketA.id, tags: 'x' } })).status).toBe(400);
  });
});
