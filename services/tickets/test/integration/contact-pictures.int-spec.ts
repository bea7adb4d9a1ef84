import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sessionCommandSubject, type ContactUpdatedEvent, type ProfilePictureCommand } from '@wa/contracts';
import { serve } from '@wa/event-bus';
import { waitFor } from '@wa/testing';
import { DataSource } from 'typeorm';
import { getDataSourceToken } from '@nestjs/typeorm';
import { ContactPictures, PICTURE_GATHER_MS } from '../../src/conversation/contacts/pictures/contact-pictures.js';
import { randomNumber, startTickets, TestCompany, ticketOfNumber, type TicketsUnderTest } from './harness.js';

/**
 * Contacts' profile pictures (issue 42 §8): a customer's first message has their picture fetched in the background
 * through the session of the connection they wrote on, kept on the contact and announced (`contact.updated`); asked
 * again only once a day has passed (the daily refresh).
 */

let t: TicketsUnderTest;

beforeAll(async () => {
  t = await startTickets();
});

afterAll(async () => {
  await t?.close();
});

/**
 * Stands in for the whatsapp-sessions process holding the connection's session: answers `profilePicture` commands
 * with what `pictures` holds for the number (none otherwise), recording each number asked.
 */
function sessionHolder(connectionId: number) {
  const asked: string[] = [];
  const pictures = new Map<string, string>();
  const stop = serve(t.bus, sessionCommandSubject(connectionId), (payload) => {
    const cmd = payload as ProfilePictureCommand;
    if (cmd.action !== 'profilePicture') return { ok: false, code: 'ERR_VALIDATION' };
    asked.push(cmd.to);
    return { ok: true, result: { url: pictures.get(cmd.to) ?? null } };
  });
  return { asked, pictures, stop };
}

/** The contact.updated events of a company, as they come. */
function contactEvents(companyId: number) {
  const sub = t.bus.connection.subscribe(`contact.updated.${companyId}.>`);
  const seen: ContactUpdatedEvent[] = [];
  void (async () => {
    for await (const m of sub) seen.push(m.json());
  })().catch(() => undefined);
  return { seen, stop: () => sub.unsubscribe() };
}

describe("contacts' profile pictures", () => {
  it('fetches a new contact’s picture once its first message is stored, keeps and announces it; within a day nothing is asked again', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const conn = await c.connection();
    const holder = sessionHolder(conn.id);
    const events = contactEvents(c.companyId);
    try {
      const from = randomNumber();
      const url = `https://pps.whatsapp.net/v/t61/${from}.jpg`;
      holder.pictures.set(from, url);
      await c.inbound(conn.id, from, 'oi, quero um orçamento', { name: 'Helena' });
      const ticket = await ticketOfNumber(t, admin.token, from);

      const announced = await waitFor(async () => events.seen.find((e) => e.contact.profilePicUrl === url));
      expect(announced.contact).toMatchObject({ id: ticket.contact.id, number: from, name: 'Helena', profilePicUrl: url });
      expect(holder.asked).toEqual([from]);
      const contact = await t.http.get(`/contacts/${ticket.contact.id}`, { token: admin.token });
      expect(contact.body.profilePicUrl).toBe(url);
      // the ticket list's contact carries it too
      expect((await ticketOfNumber(t, admin.token, from)).contact.profilePicUrl).toBe(url);

      // the conversation closed, the customer writes again the same day: a new ticket, the picture not asked again
      expect((await t.http.put(`/tickets/${ticket.id}`, { token: admin.token, body: { status: 'closed' } })).status).toBe(200);
      const seenBefore = events.seen.length;
      await c.inbound(conn.id, from, 'esqueci de perguntar', { name: 'Helena' });
      expect((await ticketOfNumber(t, admin.token, from, 'pending')).id).not.toBe(ticket.id);
      // the new ticket's contact.updated (a first message again) comes; give the picture's job its time (new contacts
      // are gathered PICTURE_GATHER_MS first), then look
      await waitFor(async () => events.seen.length > seenBefore);
      await new Promise((r) => setTimeout(r, PICTURE_GATHER_MS + 1500));
      expect(holder.asked).toEqual([from]);
      expect(events.seen.slice(seenBefore).every((e) => e.contact.profilePicUrl === url)).toBe(true);
    } finally {
      holder.stop();
      events.stop();
    }
  });

  it('keeps "no picture" with its time; the daily refresh asks again after a day and announces a new picture', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const conn = await c.connection();
    const holder = sessionHolder(conn.id);
    const events = contactEvents(c.companyId);
    const db = t.app.get<DataSource>(getDataSourceToken());
    try {
      const from = randomNumber();
      await c.inbound(conn.id, from, 'bom dia', { name: 'Igor' });
      const ticket = await ticketOfNumber(t, admin.token, from);
      const checkedAt = async () =>
        (await db.query(`SELECT "profilePicCheckedAt" AS at FROM tickets.contacts WHERE id = $1`, [ticket.contact.id]))[0]
          .at as Date | null;
      // no picture: remembered as none, with the time it was asked
      await waitFor(async () => (await checkedAt()) !== null);
      expect(holder.asked).toEqual([from]);
      expect((await t.http.get(`/contacts/${ticket.contact.id}`, { token: admin.token })).body.profilePicUrl).toBe('');

      // a day later the customer has a picture; the refresh (what the daily scheduler runs) asks again
      await db.query(`UPDATE tickets.contacts SET "profilePicCheckedAt" = now() - interval '25 hours' WHERE id = $1`, [ticket.contact.id]);
      const url = `https://pps.whatsapp.net/v/t61/${from}-novo.jpg`;
      holder.pictures.set(from, url);
      expect(await t.app.get(ContactPictures).refresh(c.companyId)).toBe(1);
      const announced = await waitFor(async () => events.seen.find((e) => e.contact.profilePicUrl === url));
      expect(announced.contact.id).toBe(ticket.contact.id);
      expect(holder.asked).toEqual([from, from]);
    } finally {
      holder.stop();
      events.stop();
    }
  });
});
