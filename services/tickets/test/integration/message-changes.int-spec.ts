import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sessionCommandSubject, type MessageChangeCommand } from '@wa/contracts';
import { serve } from '@wa/event-bus';
import { waitFor } from '@wa/testing';
import { randomNumber, startTickets, TestCompany, ticketOfNumber, type TicketsUnderTest } from './harness.js';

let t: TicketsUnderTest;

beforeAll(async () => {
  t = await startTickets();
});

afterAll(async () => {
  await t?.close();
});

/** Stands in for the process holding the connection's session: takes edits and deletions, or refuses them. */
function sessionHolder(connectionId: number, answer: (cmd: MessageChangeCommand) => unknown = () => ({ ok: true })) {
  const asked: MessageChangeCommand[] = [];
  const stop = serve(t.bus, sessionCommandSubject(connectionId), (payload) => {
    asked.push(payload as MessageChangeCommand);
    return answer(payload as MessageChangeCommand);
  });
  return { asked, stop };
}

async function sentMessage() {
  const c = new TestCompany(t);
  const admin = await c.user('admin');
  const conn = await c.connection();
  const from = randomNumber();
  await c.inbound(conn.id, from, 'oi');
  const ticket = (await ticketOfNumber(t, admin.token, from)) as { id: number };
  const sent = await t.http.post(`/messages/${ticket.id}`, { token: admin.token, body: { body: 'Olá, tudo bem?' } });
  const message = sent.body as { id: number; wid: string };
  const ack = async (n: number) =>
    t.bus.publish(`wa.ack.${c.companyId}.${conn.id}.${from}`, { companyId: c.companyId, connectionId: conn.id, waMessageId: message.wid, ack: n, at: Date.now() }, { msgId: `${conn.id}:${message.wid}:ack${n}` });
  return { c, admin, conn, from, ticket, message, ack };
}

const messageOf = async (token: string, ticketId: number, id: number) =>
  ((await t.http.get(`/messages/${ticketId}`, { token })).body.messages as Array<{ id: number; body: string; isEdited: boolean; isDeleted: boolean }>).find((m) => m.id === id);

describe('edit and delete a sent message, on WhatsApp first (POST /messages/edit/{id}, PUT /messages/{id}, DELETE /messages/{id})', () => {
  it('edits through the session, stores the new text marked edited; deletes for everyone keeping the text', async () => {
    const { admin, conn, from, ticket, message, ack } = await sentMessage();
    // not on WhatsApp yet (ack 0): nothing to change there
    expect((await t.http.post(`/messages/edit/${message.id}`, { token: admin.token, body: { body: 'x' } })).body.error).toBe('ERR_EDITING_WAPP_MSG');
    await ack(1);
    await waitFor(async () => ((await t.http.get(`/messages/${ticket.id}`, { token: admin.token })).body.messages as Array<{ id: number; ack: number }>).some((m) => m.id === message.id && m.ack >= 1));
    const holder = sessionHolder(conn.id);
    try {
      const edited = await t.http.post(`/messages/edit/${message.id}`, { token: admin.token, body: { body: 'Olá, tudo certo?', read: 1, fromMe: 1, mediaUrl: '', quotedMsg: null } });
      expect(edited.status).toBe(200);
      expect(edited.body).toMatchObject({ id: message.id, body: 'Olá, tudo certo?', isEdited: true, isDeleted: false });
      const again = await t.http.put(`/messages/${message.id}`, { token: admin.token, body: { body: 'Olá! Tudo certo?' } });
      expect(again.body).toMatchObject({ body: 'Olá! Tudo certo?', isEdited: true });
      expect((await t.http.post(`/messages/edit/${message.id}`, { token: admin.token, body: { body: '  ' } })).status).toBe(400);

      const deleted = await t.http.delete(`/messages/${message.id}`, { token: admin.token });
      expect(deleted.status).toBe(200);
      expect(deleted.body).toMatchObject({ isDeleted: true, body: 'Olá! Tudo certo?' });
      expect(await messageOf(admin.token, ticket.id, message.id)).toMatchObject({ isDeleted: true, isEdited: true, body: 'Olá! Tudo certo?' });
      expect(holder.asked).toEqual([
        { action: 'edit', to: from, waMessageId: message.wid, fromMe: true, text: 'Olá, tudo certo?' },
        { action: 'edit', to: from, waMessageId: message.wid, fromMe: true, text: 'Olá! Tudo certo?' },
        { action: 'delete', to: from, waMessageId: message.wid, fromMe: true },
      ]);
      // a deleted message is not edited again
      expect((await t.http.post(`/messages/edit/${message.id}`, { token: admin.token, body: { body: 'de novo' } })).body.error).toBe('ERR_EDITING_WAPP_MSG');
    } finally {
      holder.stop();
    }
  });

  it("changes nothing when WhatsApp refuses or no session runs; refuses a customer's message and another company's", async () => {
    const { admin, conn, ticket, message, ack } = await sentMessage();
    await ack(1);
    await waitFor(async () => ((await t.http.get(`/messages/${ticket.id}`, { token: admin.token })).body.messages as Array<{ id: number; ack: number }>).some((m) => m.id === message.id && m.ack >= 1));
    // nobody holds the session
    expect((await t.http.delete(`/messages/${message.id}`, { token: admin.token })).body.error).toBe('ERR_WAPP_NOT_INITIALIZED');
    const holder = sessionHolder(conn.id, (cmd) => ({ ok: false, code: cmd.action === 'edit' ? 'ERR_EDITING_WAPP_MSG' : 'ERR_DELETE_WAPP_MSG' }));
    try {
      const edit = await t.http.post(`/messages/edit/${message.id}`, { token: admin.token, body: { body: 'novo' } });
      expect({ status: edit.status, error: edit.body.error }).toEqual({ status: 400, error: 'ERR_EDITING_WAPP_MSG' });
      const del = await t.http.delete(`/messages/${message.id}`, { token: admin.token });
      expect({ status: del.status, error: del.body.error }).toEqual({ status: 400, error: 'ERR_DELETE_WAPP_MSG' });
      expect(await messageOf(admin.token, ticket.id, message.id)).toMatchObject({ body: 'Olá, tudo bem?', isEdited: false, isDeleted: false });
      // the customer's own message
      const theirs = ((await t.http.get(`/messages/${ticket.id}`, { token: admin.token })).body.messages as Array<{ id: number; fromMe: boolean }>).find((m) => !m.fromMe)!;
      expect((await t.http.delete(`/messages/${theirs.id}`, { token: admin.token })).body.error).toBe('ERR_DELETE_WAPP_MSG');
      // another company, by id
      const other = await new TestCompany(t).user('admin');
      expect((await t.http.delete(`/messages/${message.id}`, { token: other.token })).status).toBe(404);
      expect((await t.http.post(`/messages/edit/${message.id}`, { token: other.token, body: { body: 'x' } })).body.error).toBe('ERR_NO_MESSAGE_FOUND');
      expect(holder.asked).toHaveLength(2);
    } finally {
      holder.stop();
    }
  });
});
