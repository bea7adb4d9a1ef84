import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getDataSourceToken } from '@nestjs/typeorm';
import { TicketSubjects, WaSubjects, type WaInboundMessage, type WaLidMapped, type WaOutboundSend, type WhatsappDto } from '@wa/contracts';
import { waitFor } from '@wa/testing';
import { randomInt, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { randomNumber, startTickets, TestCompany, ticketOfNumber, type TicketsUnderTest } from './harness.js';

/**
 * Issue 42 §2 in tickets: one customer, one contact, whatever WhatsApp calls them. A LID-addressed message carrying
 * the number lands on the number's contact; a bare LID makes a contact that shows no number and is answered at the
 * LID; when WhatsApp tells which number the LID stands for (`wa.lid.*`), the two contacts become one with everything
 * they hold, and later bare-LID messages go to it.
 */

let t: TicketsUnderTest;
let db: DataSource;

beforeAll(async () => {
  t = await startTickets();
  db = t.app.get(getDataSourceToken()) as DataSource;
});

afterAll(async () => {
  await t?.close();
});

const newLid = () => `${randomInt(100_000, 999_999)}${randomInt(100_000_000, 999_999_999)}`;

/** A customer's message as whatsapp-sessions publishes it: by number (with its LID) or by a bare LID's address. */
async function inbound(c: TestCompany, conn: WhatsappDto, who: { from: string; fromLid?: string }, body: string): Promise<string> {
  const msg: WaInboundMessage = {
    companyId: c.companyId,
    connectionId: conn.id,
    waMessageId: `L${randomUUID().replace(/-/g, '').slice(0, 19).toUpperCase()}`,
    ...who,
    fromName: 'Lia',
    body,
    mediaType: 'chat',
    fromMe: false,
    isGroup: false,
    timestamp: Date.now(),
  };
  await t.bus.publish(WaSubjects.inbound(c.companyId, conn.id, who.from), msg, {
    msgId: WaSubjects.inboundMsgId(conn.id, msg.waMessageId),
  });
  return msg.waMessageId;
}

/** WhatsApp told the company's LID map which number the LID stands for (whatsapp-sessions' announcement). */
async function lidMapped(c: TestCompany, lid: string, pn: string): Promise<void> {
  const event: WaLidMapped = { companyId: c.companyId, lid, pn, at: Date.now() };
  await t.bus.publish(WaSubjects.lidMapped(c.companyId), event, { msgId: `lid-test:${randomUUID()}` });
}

async function contactsOf(c: TestCompany): Promise<Array<{ id: number; number: string; lid: string | null; name: string }>> {
  return db.query(`SELECT id, number, lid, name FROM tickets.contacts WHERE "companyId" = $1 ORDER BY id`, [c.companyId]);
}

async function ticketsOf(c: TestCompany, contactId: number): Promise<Array<{ id: number; status: string; unreadMessages: number }>> {
  return db.query(`SELECT id, status, "unreadMessages" FROM tickets.tickets WHERE "companyId" = $1 AND "contactId" = $2 ORDER BY id`, [
    c.companyId,
    contactId,
  ]);
}

/** The contact of a bare LID, once its message is stored. */
function lidContact(c: TestCompany, lid: string) {
  return waitFor(async () => (await contactsOf(c)).find((k) => k.number === `${lid}@lid`));
}

describe('LIDs in tickets', () => {
  it("stores a LID-addressed message carrying the number on the number's contact, not on the LID", async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const conn = await c.connection();
    const pn = randomNumber();
    const lid = newLid();
    await inbound(c, conn, { from: pn, fromLid: lid }, 'oi, pelo número');
    const ticket = await ticketOfNumber(t, admin.token, pn);
    expect(ticket).toMatchObject({ lastMessage: 'oi, pelo número', contact: { number: pn } });
    expect((await contactsOf(c)).map((k) => k.number)).toEqual([pn]);
  });

  it('makes a bare LID a contact with no number shown, answered at the LID', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const conn = await c.connection();
    const lid = newLid();
    await inbound(c, conn, { from: `${lid}@lid` }, 'sou um LID');
    const contact = await lidContact(c, lid);
    const shown = await t.http.get(`/contacts/${contact.id}`, { token: admin.token });
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ id: contact.id, name: 'Lia', number: '', lid });
    const [ticket] = await ticketsOf(c, contact.id);
    const view = await t.http.get(`/tickets/${ticket!.id}`, { token: admin.token });
    expect(view.body.contact).toMatchObject({ id: contact.id, number: '' });

    // a reply goes to the LID's address (whatsapp-sessions sends it to the LID)
    const sends = t.bus.connection.subscribe(WaSubjects.outbound(conn.id), { max: 1, timeout: 10_000 });
    const sent = await t.http.post(`/messages/${ticket!.id}`, { token: admin.token, body: { body: 'Olá! Em que posso ajudar?' } });
    expect(sent.status).toBe(201);
    for await (const m of sends) {
      const send = JSON.parse(new TextDecoder().decode(m.data)) as WaOutboundSend;
      expect(send).toMatchObject({ to: `${lid}@lid`, body: 'Olá! Em que posso ajudar?' });
    }
  });

  it("merges the LID's contact into the number's with its messages, notes and tags once the mapping arrives", async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const conn = await c.connection();
    const pn = randomNumber();
    const lid = newLid();
    const tag = (await t.http.post('/tags', { token: admin.token, body: { name: `LID ${randomInt(1_000_000)}` } })).body as { id: number };

    await inbound(c, conn, { from: pn }, 'primeira, pelo número');
    const numberTicket = await ticketOfNumber(t, admin.token, pn);
    await inbound(c, conn, { from: `${lid}@lid` }, 'segunda, como LID');
    const lidOne = await lidContact(c, lid);
    const [lidTicket] = await ticketsOf(c, lidOne.id);
    const note = await t.http.post('/ticket-notes', {
      token: admin.token,
      body: { note: 'cliente veio pelo LID', ticketId: lidTicket!.id, contactId: lidOne.id },
    });
    expect(note.status).toBe(201);
    expect(
      (await t.http.post('/tags/sync', { token: admin.token, body: { ticketId: lidTicket!.id, tags: [{ id: tag.id }] } })).status,
    ).toBe(200);

    const deleted = t.bus.connection.subscribe(TicketSubjects.ticketDeleted(c.companyId, lidTicket!.id), { max: 1, timeout: 10_000 });
    await lidMapped(c, lid, pn);
    for await (const m of deleted) expect(JSON.parse(new TextDecoder().decode(m.data))).toMatchObject({ ticketId: lidTicket!.id });

    // one contact: the number's, knowing its LID; the LID's is gone
    const contacts = await contactsOf(c);
    expect(contacts).toEqual([expect.objectContaining({ id: numberTicket.contactId, number: pn, lid })]);
    expect((await t.http.get(`/contacts/${lidOne.id}`, { token: admin.token })).status).toBe(404);
    expect((await t.http.get(`/tickets/${lidTicket!.id}`, { token: admin.token })).status).toBe(404);
    // one conversation with both messages in order, the note and the tag, both unread
    const merged = await t.http.get(`/tickets/${numberTicket.id}`, { token: admin.token });
    expect(merged.body).toMatchObject({
      unreadMessages: 2,
      lastMessage: 'segunda, como LID',
      tags: [expect.objectContaining({ id: tag.id })],
    });
    const messages = await t.http.get(`/messages/${numberTicket.id}`, { token: admin.token });
    expect(messages.body.messages.map((m: { body: string }) => m.body)).toEqual(['primeira, pelo número', 'segunda, como LID']);
    const notes = await t.http.get(`/ticket-notes/list?ticketId=${numberTicket.id}&contactId=${numberTicket.contactId}`, {
      token: admin.token,
    });
    expect(notes.body.map((n: { note: string }) => n.note)).toEqual(['cliente veio pelo LID']);

    // later bare-LID messages go to the merged contact's conversation; the mapping told again changes nothing
    await lidMapped(c, lid, pn);
    await inbound(c, conn, { from: `${lid}@lid` }, 'terceira, ainda como LID');
    await waitFor(async () => {
      const res = await t.http.get(`/messages/${numberTicket.id}`, { token: admin.token });
      return res.body.messages.length === 3 ? res : undefined;
    });
    expect((await contactsOf(c)).map((k) => k.number)).toEqual([pn]);
  });

  it("makes the LID's contact the number's when the number had none, keeping its conversation and name", async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const conn = await c.connection();
    const pn = randomNumber();
    const lid = newLid();
    await inbound(c, conn, { from: `${lid}@lid` }, 'sou um LID');
    const lidOne = await lidContact(c, lid);
    const [ticket] = await ticketsOf(c, lidOne.id);

    const updated = t.bus.connection.subscribe(TicketSubjects.contactUpdated(c.companyId, lidOne.id), { max: 1, timeout: 10_000 });
    await lidMapped(c, lid, pn);
    for await (const m of updated)
      expect(JSON.parse(new TextDecoder().decode(m.data)).contact).toMatchObject({ number: pn, lid, name: 'Lia' });
    expect(await contactsOf(c)).toEqual([{ id: lidOne.id, number: pn, lid, name: 'Lia' }]);
    expect(await ticketOfNumber(t, admin.token, pn)).toMatchObject({ id: ticket!.id, contact: { number: pn } });
  });

  it("keeps the LID of a LID's contact an admin gave its number: later bare-LID messages still reach it", async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const conn = await c.connection();
    const lid = newLid();
    const pn = randomNumber();
    await inbound(c, conn, { from: `${lid}@lid` }, 'sou um LID');
    const lidOne = await lidContact(c, lid);
    const edited = await t.http.put(`/contacts/${lidOne.id}`, { token: admin.token, body: { name: 'Lia Souza', number: pn } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id: lidOne.id, number: pn, lid });
    await inbound(c, conn, { from: `${lid}@lid` }, 'de novo');
    const ticket = await waitFor(async () => {
      const found = await ticketOfNumber(t, admin.token, pn);
      return found.lastMessage === 'de novo' ? found : undefined;
    });
    expect(ticket).toMatchObject({ contactId: lidOne.id, contact: { number: pn } });
    expect((await contactsOf(c)).map((k) => k.id)).toEqual([lidOne.id]);
  });

  it("keeps another company's contacts out of a merge", async () => {
    const a = new TestCompany(t);
    const b = new TestCompany(t);
    await a.user('admin');
    await b.user('admin');
    const connA = await a.connection();
    const connB = await b.connection();
    const lid = newLid();
    const pn = randomNumber();
    await inbound(a, connA, { from: `${lid}@lid` }, 'empresa A');
    await inbound(b, connB, { from: `${lid}@lid` }, 'empresa B');
    await lidContact(a, lid);
    const inB = await lidContact(b, lid);
    await lidMapped(a, lid, pn);
    await waitFor(async () => ((await contactsOf(a))[0]?.number === pn ? true : undefined));
    expect(await contactsOf(b)).toEqual([expect.objectContaining({ id: inB.id, number: `${lid}@lid`, lid: null })]);
  });
});
