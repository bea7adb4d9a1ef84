import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { newQueue, randomNumber, startTickets, TestCompany, ticketOfNumber, type TicketsUnderTest } from './harness.js';

let t: TicketsUnderTest;

beforeAll(async () => {
  t = await startTickets();
});

afterAll(async () => {
  await t?.close();
});

/** A company with an admin, an agent of one queue and a pending ticket on that queue. */
async function conversation() {
  const c = new TestCompany(t);
  const admin = await c.user('admin', [], 'Ana Admin');
  const queue = await newQueue(t, admin.token);
  const agent = await c.user('user', [queue.id], 'Bruno Agente');
  const conn = await c.connection({ queueIds: [queue.id], isDefault: true });
  const from = randomNumber();
  await c.inbound(conn.id, from, 'preciso de ajuda');
  const ticket = await ticketOfNumber(t, admin.token, from);
  return { c, admin, agent, queue, conn, ticket: ticket as { id: number; contactId: number } };
}

const listOf = async (token: string, ticket: { id: number; contactId: number }) =>
  t.http.get(`/ticket-notes/list?ticketId=${ticket.id}&contactId=${ticket.contactId}`, { token });

describe('ticket notes (spec 01: POST /ticket-notes, GET /ticket-notes/list, DELETE /ticket-notes/{id})', () => {
  it('adds notes by whoever sees the ticket, lists them newest first with their author, and deletes (author or admin)', async () => {
    const { admin, agent, ticket } = await conversation();
    const first = await t.http.post('/ticket-notes', {
      token: agent.token,
      body: { note: 'Cliente pediu retorno às 15h', ticketId: ticket.id, contactId: ticket.contactId },
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      note: 'Cliente pediu retorno às 15h',
      ticketId: ticket.id,
      contactId: ticket.contactId,
      user: { id: agent.id, name: 'Bruno Agente' },
    });
    const second = await t.http.post('/ticket-notes', {
      token: admin.token,
      body: { note: 'ok', ticketId: String(ticket.id), contactId: ticket.contactId },
    });
    expect(second.status).toBe(201);

    const listed = await listOf(agent.token, ticket);
    expect(listed.status).toBe(200);
    expect(listed.body.map((n: { note: string }) => n.note)).toEqual(['ok', 'Cliente pediu retorno às 15h']);

    // the agent may not delete the admin's note; the admin may delete the agent's
    const refused = await t.http.delete(`/ticket-notes/${second.body.id}`, { token: agent.token });
    expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 403, error: 'ERR_NO_PERMISSION' });
    expect((await t.http.delete(`/ticket-notes/${first.body.id}`, { token: admin.token })).status).toBe(200);
    expect((await listOf(admin.token, ticket)).body.map((n: { id: number }) => n.id)).toEqual([second.body.id]);
    expect((await t.http.delete(`/ticket-notes/${first.body.id}`, { token: admin.token })).body.error).toBe('ERR_NO_NOTE_FOUND');
  });

  it("refuses a short or missing note, bad ids, and a contact that is not the ticket's, writing nothing", async () => {
    const { admin, ticket } = await conversation();
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ note: 'x', ticketId: ticket.id, contactId: ticket.contactId }, 400, 'ERR_VALIDATION'],
      [{ ticketId: ticket.id, contactId: ticket.contactId }, 400, 'ERR_VALIDATION'],
      [{ note: 'x'.repeat(10_001), ticketId: ticket.id, contactId: ticket.contactId }, 400, 'ERR_VALIDATION'],
      [{ note: 'válida', ticketId: 'abc', contactId: ticket.contactId }, 400, 'ERR_VALIDATION'],
      [{ note: 'válida', ticketId: 1e12, contactId: ticket.contactId }, 400, 'ERR_VALIDATION'],
      [{ note: 'válida', ticketId: ticket.id, contactId: ticket.contactId + 1_000_000 }, 404, 'ERR_NO_CONTACT_FOUND'],
      [{ note: 'válida', ticketId: 2_000_000_000, contactId: ticket.contactId }, 404, 'ERR_NO_TICKET_FOUND'],
    ];
    for (const [body, status, error] of cases) {
      const res = await t.http.post('/ticket-notes', { token: admin.token, body });
      expect({ body: JSON.stringify(body).slice(0, 80), status: res.status, error: res.body.error }).toEqual({
        body: JSON.stringify(body).slice(0, 80),
        status,
        error,
      });
    }
    const short = await t.http.post('/ticket-notes', {
      token: admin.token,
      body: { note: 'x', ticketId: ticket.id, contactId: ticket.contactId },
    });
    expect(JSON.stringify(short.body)).toContain('Too Short!');
    expect((await listOf(admin.token, ticket)).body).toEqual([]);
    expect((await t.http.get(`/ticket-notes/list?ticketId=${ticket.id}`, { token: admin.token })).status).toBe(400);
  });

  it("keeps notes to who may see the ticket, and company B reaches none of A's", async () => {
    const a = await conversation();
    const b = await conversation();
    const note = await t.http.post('/ticket-notes', {
      token: a.admin.token,
      body: { note: 'segredo de A', ticketId: a.ticket.id, contactId: a.ticket.contactId },
    });
    expect(note.status).toBe(201);
    // an agent of another queue of A
    const otherQueue = await newQueue(t, a.admin.token);
    const outsider = await a.c.user('user', [otherQueue.id]);
    expect((await listOf(outsider.token, a.ticket)).status).toBe(403);
    expect(
      (
        await t.http.post('/ticket-notes', {
          token: outsider.token,
          body: { note: 'intrusão', ticketId: a.ticket.id, contactId: a.ticket.contactId },
        })
      ).status,
    ).toBe(403);
    // company B, by id
    expect((await listOf(b.admin.token, a.ticket)).status).toBe(404);
    expect(
      (
        await t.http.post('/ticket-notes', {
          token: b.admin.token,
          body: { note: 'intrusão', ticketId: a.ticket.id, contactId: a.ticket.contactId },
        })
      ).status,
    ).toBe(404);
    expect((await t.http.delete(`/ticket-notes/${note.body.id}`, { token: b.admin.token })).status).toBe(404);
    expect((await listOf(a.admin.token, a.ticket)).body.map((n: { note: string }) => n.note)).toEqual(['segredo de A']);
  });
});
