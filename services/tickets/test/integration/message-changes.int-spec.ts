import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sessionCommandSubject, WaSubjects, type MessageChangeCommand, type WaOutboundSend } from '@wa/contracts';
import { serve } from '@wa/event-bus';
import { waitFor } from '@wa/testing';
import { NO_PICTURE, pictureAsked, randomNumber, startTickets, TestCompany, ticketOfNumber, type TicketsUnderTest } from './harness.js';

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
    if (pictureAsked(payload)) return NO_PICTURE;
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
    t.bus.publish(
      `wa.ack.${c.companyId}.${conn.id}.${from}`,
      { companyId: c.companyId, connectionId: conn.id, waMessageId: message.wid, ack: n, at: Date.now() },
      { msgId: `${conn.id}:${message.wid}:ack${n}` },
    );
  return { c, admin, conn, from, ticket, message, ack };
}

const messageOf = async (token: string, ticketId: number, id: number) =>
  (
    (await t.http.get(`/messages/${ticketId}`, { token })).body.messages as Array<{
      id: number;
      body: string;
      isEdited: boolean;
      isDeleted: boolean;
    }>
  ).find((m) => m.id === id);

describe('edit and delete a sent message, on WhatsApp first (POST /messages/edit/{id}, PUT /messages/{id}, DELETE /messages/{id})', () => {
  it('edits through the session, stores the new text marked edited; deletes for everyone keeping the text', async () => {
    const { admin, conn, from, ticket, message, ack } = await sentMessage();
    // (a change made before the message is on WhatsApp, ack 0, waits for it: see 'right after sending' below)
    await ack(1);
    await waitFor(async () =>
      ((await t.http.get(`/messages/${ticket.id}`, { token: admin.token })).body.messages as Array<{ id: number; ack: number }>).some(
        (m) => m.id === message.id && m.ack >= 1,
      ),
    );
    const holder = sessionHolder(conn.id);
    try {
      const edited = await t.http.post(`/messages/edit/${message.id}`, {
        token: admin.token,
        body: { body: 'Olá, tudo certo?', read: 1, fromMe: 1, mediaUrl: '', quotedMsg: null },
      });
      expect(edited.status).toBe(200);
      expect(edited.body).toMatchObject({ id: message.id, body: 'Olá, tudo certo?', isEdited: true, isDeleted: false });
      const again = await t.http.put(`/messages/${message.id}`, { token: admin.token, body: { body: 'Olá! Tudo certo?' } });
      expect(again.body).toMatchObject({ body: 'Olá! Tudo certo?', isEdited: true });
      expect((await t.http.post(`/messages/edit/${message.id}`, { token: admin.token, body: { body: '  ' } })).status).toBe(400);

      const deleted = await t.http.delete(`/messages/${message.id}`, { token: admin.token });
      expect(deleted.status).toBe(200);
      expect(deleted.body).toMatchObject({ isDeleted: true, body: 'Olá! Tudo certo?' });
      expect(await messageOf(admin.token, ticket.id, message.id)).toMatchObject({
        isDeleted: true,
        isEdited: true,
        body: 'Olá! Tudo certo?',
      });
      expect(holder.asked).toEqual([
        { action: 'edit', to: from, waMessageId: message.wid, fromMe: true, text: 'Olá, tudo certo?' },
        { action: 'edit', to: from, waMessageId: message.wid, fromMe: true, text: 'Olá! Tudo certo?' },
        { action: 'delete', to: from, waMessageId: message.wid, fromMe: true },
      ]);
      // a deleted message is not edited again
      expect((await t.http.post(`/messages/edit/${message.id}`, { token: admin.token, body: { body: 'de novo' } })).body.error).toBe(
        'ERR_EDITING_WAPP_MSG',
      );
    } finally {
      holder.stop();
    }
  });

  it("changes nothing when WhatsApp refuses or no session runs; refuses a customer's message and another company's", async () => {
    const { admin, conn, ticket, message, ack } = await sentMessage();
    await ack(1);
    await waitFor(async () =>
      ((await t.http.get(`/messages/${ticket.id}`, { token: admin.token })).body.messages as Array<{ id: number; ack: number }>).some(
        (m) => m.id === message.id && m.ack >= 1,
      ),
    );
    // nobody holds the session
    expect((await t.http.delete(`/messages/${message.id}`, { token: admin.token })).body.error).toBe('ERR_WAPP_NOT_INITIALIZED');
    const holder = sessionHolder(conn.id, (cmd) => ({
      ok: false,
      code: cmd.action === 'edit' ? 'ERR_EDITING_WAPP_MSG' : 'ERR_DELETE_WAPP_MSG',
    }));
    try {
      const edit = await t.http.post(`/messages/edit/${message.id}`, { token: admin.token, body: { body: 'novo' } });
      expect({ status: edit.status, error: edit.body.error }).toEqual({ status: 400, error: 'ERR_EDITING_WAPP_MSG' });
      const del = await t.http.delete(`/messages/${message.id}`, { token: admin.token });
      expect({ status: del.status, error: del.body.error }).toEqual({ status: 400, error: 'ERR_DELETE_WAPP_MSG' });
      expect(await messageOf(admin.token, ticket.id, message.id)).toMatchObject({
        body: 'Olá, tudo bem?',
        isEdited: false,
        isDeleted: false,
      });
      // the customer's own message
      const theirs = (
        (await t.http.get(`/messages/${ticket.id}`, { token: admin.token })).body.messages as Array<{ id: number; fromMe: boolean }>
      ).find((m) => !m.fromMe)!;
      expect((await t.http.delete(`/messages/${theirs.id}`, { token: admin.token })).body.error).toBe('ERR_DELETE_WAPP_MSG');
      // another company, by id
      const other = await new TestCompany(t).user('admin');
      expect((await t.http.delete(`/messages/${message.id}`, { token: other.token })).status).toBe(404);
      expect((await t.http.post(`/messages/edit/${message.id}`, { token: other.token, body: { body: 'x' } })).body.error).toBe(
        'ERR_NO_MESSAGE_FOUND',
      );
      expect(holder.asked).toHaveLength(2);
    } finally {
      holder.stop();
    }
  });
});

/**
 * The connection's phone as the sandbox session plays it: a send reaches it and its first tick (ack 1) comes
 * `sendMs` later, as the session reports it; an edit or a deletion of a message it has not received yet is
 * refused (WhatsApp cannot change a message it does not have). What reached it, in order, is `received`.
 */
function sandboxPhone(c: { companyId: number }, connectionId: number, sendMs = 400) {
  const received: Array<{ kind: 'send' | 'edit' | 'delete'; waMessageId: string; text?: string }> = [];
  const sends = t.bus.connection.subscribe(WaSubjects.outbound(connectionId), {
    callback: (_err, msg) => {
      const send = msg.json<WaOutboundSend>();
      setTimeout(() => {
        received.push({ kind: 'send', waMessageId: send.waMessageId, text: send.body });
        void t.bus.publish(
          WaSubjects.ack(c.companyId, connectionId, send.to),
          { companyId: c.companyId, connectionId, waMessageId: send.waMessageId, ack: 1, at: Date.now() },
          { msgId: WaSubjects.ackMsgId(connectionId, send.waMessageId, 1) },
        );
      }, sendMs);
    },
  });
  const stop = serve(t.bus, sessionCommandSubject(connectionId), (payload) => {
    const cmd = payload as MessageChangeCommand;
    if (!received.some((r) => r.kind === 'send' && r.waMessageId === cmd.waMessageId))
      return { ok: false, code: cmd.action === 'edit' ? 'ERR_EDITING_WAPP_MSG' : 'ERR_DELETE_WAPP_MSG' };
    received.push(
      cmd.action === 'edit'
        ? { kind: 'edit', waMessageId: cmd.waMessageId, text: cmd.text }
        : { kind: 'delete', waMessageId: cmd.waMessageId },
    );
    return { ok: true };
  });
  return {
    received,
    stop: () => {
      sends.unsubscribe();
      stop();
    },
  };
}

describe('a change right after sending (issue 39 item 7): it waits for the send, then applies', () => {
  it('an edit made at once after sending answers 200 and reaches the phone after the message; a deletion too', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const conn = await c.connection();
    const from = randomNumber();
    await c.inbound(conn.id, from, 'oi');
    const ticket = (await ticketOfNumber(t, admin.token, from)) as { id: number };
    const phone = sandboxPhone(c, conn.id);
    try {
      const sent = (await t.http.post(`/messages/${ticket.id}`, { token: admin.token, body: { body: 'Olá, tudo bem?' } })).body as {
        id: number;
        wid: string;
        ack: number;
      };
      expect(sent.ack).toBe(0);
      const edited = await t.http.post(`/messages/edit/${sent.id}`, { token: admin.token, body: { body: 'Olá, tudo certo?' } });
      expect({ status: edited.status, error: edited.body.error }).toEqual({ status: 200, error: undefined });
      expect(edited.body).toMatchObject({ id: sent.id, body: 'Olá, tudo certo?', isEdited: true });
      expect(edited.body.ack).toBeGreaterThanOrEqual(1);

      // two edits made together, before the first tick: both wait, go out in the order asked, the last one stays
      const other = (await t.http.post(`/messages/${ticket.id}`, { token: admin.token, body: { body: 'Segue o orçamento' } })).body as {
        id: number;
        wid: string;
      };
      const first = t.http.post(`/messages/edit/${other.id}`, { token: admin.token, body: { body: 'Segue o orçamento.' } });
      await new Promise((r) => setTimeout(r, 20));
      const second = t.http.put(`/messages/${other.id}`, { token: admin.token, body: { body: 'Segue o orçamento!' } });
      expect([(await first).status, (await second).status]).toEqual([200, 200]);
      expect(await messageOf(admin.token, ticket.id, other.id)).toMatchObject({ body: 'Segue o orçamento!', isEdited: true });

      // a deletion made at once after sending
      const third = (await t.http.post(`/messages/${ticket.id}`, { token: admin.token, body: { body: 'enviado por engano' } })).body as {
        id: number;
        wid: string;
      };
      const deleted = await t.http.delete(`/messages/${third.id}`, { token: admin.token });
      expect({ status: deleted.status, isDeleted: deleted.body.isDeleted }).toEqual({ status: 200, isDeleted: true });

      expect(phone.received).toEqual([
        { kind: 'send', waMessageId: sent.wid, text: 'Olá, tudo bem?' },
        { kind: 'edit', waMessageId: sent.wid, text: 'Olá, tudo certo?' },
        { kind: 'send', waMessageId: other.wid, text: 'Segue o orçamento' },
        { kind: 'edit', waMessageId: other.wid, text: 'Segue o orçamento.' },
        { kind: 'edit', waMessageId: other.wid, text: 'Segue o orçamento!' },
        { kind: 'send', waMessageId: third.wid, text: 'enviado por engano' },
        { kind: 'delete', waMessageId: third.wid },
      ]);
    } finally {
      phone.stop();
    }
  });

  it('refuses, as before, a change of a message whose send was given up (it never reached WhatsApp)', async () => {
    const { c, admin, conn, from, ticket, message } = await sentMessage();
    const holder = sessionHolder(conn.id);
    try {
      await t.bus.publish(
        WaSubjects.ack(c.companyId, conn.id, from),
        { companyId: c.companyId, connectionId: conn.id, waMessageId: message.wid, ack: 0, at: Date.now(), failed: 'not on WhatsApp' },
        { msgId: `${conn.id}:${message.wid}:failed` },
      );
      const edit = t.http.post(`/messages/edit/${message.id}`, { token: admin.token, body: { body: 'x' } });
      const del = t.http.delete(`/messages/${message.id}`, { token: admin.token });
      const [e, d] = await Promise.all([edit, del]);
      expect([e.status, e.body.error, e.body.message]).toEqual([400, 'ERR_EDITING_WAPP_MSG', 'The message has not reached WhatsApp yet.']);
      expect([d.status, d.body.error]).toEqual([400, 'ERR_DELETE_WAPP_MSG']);
      expect(await messageOf(admin.token, ticket.id, message.id)).toMatchObject({
        body: 'Olá, tudo bem?',
        isEdited: false,
        isDeleted: false,
      });
      expect(holder.asked).toEqual([]);
    } finally {
      holder.stop();
    }
  });
});
