import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getDataSourceToken } from '@nestjs/typeorm';
import { WaSubjects, type WaInboundMessage, type WhatsappDto } from '@wa/contracts';
import { waitFor } from '@wa/testing';
import { randomInt, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { randomNumber, startTickets, TestCompany, ticketOfNumber, type TicketsUnderTest } from './harness.js';

/**
 * CheckMsgIsGroup (spec 02 §3; issue 42 §8): while a company's setting is 'enabled' (every company's default) its
 * WhatsApp group messages are dropped before anything is stored; 'disabled' makes them group tickets. A change
 * applies to the next message.
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

/** A message written in a WhatsApp group, as whatsapp-sessions publishes it (`from` is the group's id). */
async function groupMessage(c: TestCompany, conn: WhatsappDto, groupId: string, body: string, fromMe = false): Promise<string> {
  const msg: WaInboundMessage = {
    companyId: c.companyId,
    connectionId: conn.id,
    waMessageId: `G${randomUUID().replace(/-/g, '').slice(0, 18).toUpperCase()}`,
    from: groupId,
    fromName: 'Joana no grupo',
    body,
    mediaType: 'chat',
    fromMe,
    isGroup: true,
    timestamp: Date.now(),
  };
  await t.bus.publish(WaSubjects.inbound(c.companyId, conn.id, groupId), msg, { msgId: WaSubjects.inboundMsgId(conn.id, msg.waMessageId) });
  return msg.waMessageId;
}

/** How many group messages this process dropped so far (its /metrics). */
async function ignoredSoFar(): Promise<number> {
  const res = await t.http.get('/metrics');
  const line = /^tickets_inbound_group_messages_ignored_total(?:\{[^}]*\})? (\d+)/m.exec(String(res.body));
  return line ? Number(line[1]) : 0;
}

/** What tickets stored of the group (its contact, tickets and messages), for this company. */
async function storedOf(c: TestCompany, groupId: string): Promise<{ contacts: number; tickets: number; messages: string[] }> {
  const [row] = (await db.query(
    `SELECT (SELECT count(*)::int FROM tickets.contacts k WHERE k."companyId" = $1 AND k.number = $2) AS contacts,
            (SELECT count(*)::int FROM tickets.tickets x JOIN tickets.contacts k ON k.id = x."contactId"
              WHERE x."companyId" = $1 AND k.number = $2) AS tickets,
            ARRAY(SELECT m.body FROM tickets.messages m JOIN tickets.contacts k ON k.id = m."contactId"
                   WHERE m."companyId" = $1 AND k.number = $2 ORDER BY m.id) AS messages`,
    [c.companyId, groupId],
  )) as Array<{ contacts: number; tickets: number; messages: string[] }>;
  return row as { contacts: number; tickets: number; messages: string[] };
}

const newGroupId = () => `120363${randomInt(100_000_000, 999_999_999)}${randomInt(100_000, 999_999)}`;

describe('group messages and the setting CheckMsgIsGroup', () => {
  it('drops a group message unstored while the setting is enabled (the default), and the customers beside it are stored', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const conn = await c.connection();
    const groupId = newGroupId();
    const before = await ignoredSoFar();

    // no copy of the setting yet: the default, enabled
    await groupMessage(c, conn, groupId, 'bom dia, grupo');
    await waitFor(async () => (await ignoredSoFar()) >= before + 1);
    await c.settingKept('CheckMsgIsGroup', 'enabled');
    await groupMessage(c, conn, groupId, 'alguém aí?');
    // the phone's own message in the group too
    await groupMessage(c, conn, groupId, 'sim, estou', true);
    await waitFor(async () => (await ignoredSoFar()) >= before + 3);
    // a customer writing at the same time still opens a ticket
    const customer = randomNumber();
    await c.inbound(conn.id, customer, 'quero um orçamento');
    expect(await ticketOfNumber(t, admin.token, customer)).toMatchObject({ isGroup: false, lastMessage: 'quero um orçamento' });

    expect(await storedOf(c, groupId)).toEqual({ contacts: 0, tickets: 0, messages: [] });
    const listed = await t.http.get(`/tickets?showAll=true&searchParam=${groupId}`, { token: admin.token });
    expect(listed.body.tickets).toEqual([]);
  });

  it('opens a group ticket while it is disabled; a change made live applies to the next message', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const conn = await c.connection();
    const groupId = newGroupId();

    await c.settingKept('CheckMsgIsGroup', 'disabled');
    await groupMessage(c, conn, groupId, 'primeira no grupo');
    const ticket = await ticketOfNumber(t, admin.token, groupId);
    expect(ticket).toMatchObject({ isGroup: true, lastMessage: 'primeira no grupo', contact: { number: groupId } });

    // enabled again: the next group message is dropped, the ticket keeps what it had
    await c.settingKept('CheckMsgIsGroup', 'enabled');
    const before = await ignoredSoFar();
    await groupMessage(c, conn, groupId, 'esta não entra');
    await waitFor(async () => (await ignoredSoFar()) >= before + 1);
    expect(await storedOf(c, groupId)).toEqual({ contacts: 1, tickets: 1, messages: ['primeira no grupo'] });

    // and disabled once more: the next one is in the same ticket
    await c.settingKept('CheckMsgIsGroup', 'disabled');
    await groupMessage(c, conn, groupId, 'esta entra');
    await waitFor(async () => (await storedOf(c, groupId)).messages.length === 2);
    expect(await storedOf(c, groupId)).toEqual({ contacts: 1, tickets: 1, messages: ['primeira no grupo', 'esta entra'] });
    const page = await t.http.get(`/messages/${ticket.id}`, { token: admin.token });
    expect((page.body.messages as Array<{ body: string }>).map((m) => m.body)).toEqual(['primeira no grupo', 'esta entra']);
  });

  it("follows each company's own setting", async () => {
    const ignoring = new TestCompany(t);
    const taking = new TestCompany(t);
    const [connA, connB] = [await ignoring.connection(), await taking.connection()];
    const adminB = await taking.user('admin');
    await taking.settingKept('CheckMsgIsGroup', 'disabled');
    const groupId = newGroupId();
    const before = await ignoredSoFar();
    // the same group, seen by both companies' phones
    await groupMessage(ignoring, connA, groupId, 'aviso do grupo');
    await groupMessage(taking, connB, groupId, 'aviso do grupo');
    expect(await ticketOfNumber(t, adminB.token, groupId)).toMatchObject({ isGroup: true });
    await waitFor(async () => (await ignoredSoFar()) >= before + 1);
    expect(await storedOf(ignoring, groupId)).toEqual({ contacts: 0, tickets: 0, messages: [] });
  });
});
