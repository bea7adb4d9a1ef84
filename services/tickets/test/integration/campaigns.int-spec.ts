import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getDataSourceToken } from '@nestjs/typeorm';
import { signServiceToken } from '@wa/auth';
import { CampaignSubjects, WaSubjects, type CampaignMessageSent, type WaInboundMessage } from '@wa/contracts';
import { pdfFile, pngFile, waitFor } from '@wa/testing';
import { randomInt, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { newQueue, startTickets, TestCompany, ticketOfNumber, type TicketsUnderTest } from './harness.js';

let t: TicketsUnderTest;
let serviceToken: string;

beforeAll(async () => {
  t = await startTickets();
  serviceToken = signServiceToken('campaigns', t.env.JWT_SECRET);
});

afterAll(async () => {
  await t?.close();
});

/** A Brazilian mobile whose old form (without the 9th digit) is one too. */
const mobile = () => `55119${randomInt(60_000_000, 99_999_999)}`;
const oldForm = (n: string) => `5511${n.slice(5)}`;

async function company() {
  const c = new TestCompany(t);
  const admin = await c.user('admin', [], 'Ana Admin');
  const queue = await newQueue(t, admin.token);
  const conn = await c.connection({ queueIds: [queue.id] });
  return { c, admin, conn };
}

describe("tickets' internal answers to campaigns (a service token only)", () => {
  it("pages a tag's contacts by id (those whose tickets carry it; no group), and refuses a user, no token, another company's tag", async () => {
    const { c, admin, conn } = await company();
    const tag = (await t.http.post('/tags', { token: admin.token, body: { name: 'Campanha' } })).body as { id: number };
    const other = (await t.http.post('/tags', { token: admin.token, body: { name: 'Outra' } })).body as { id: number };
    const numbers = [mobile(), mobile(), mobile(), mobile()];
    const tickets: Array<{ id: number; contact: { id: number } }> = [];
    for (const n of numbers) {
      await c.inbound(conn.id, n, 'oi', { name: `Cliente ${n.slice(-4)}` });
      tickets.push(await ticketOfNumber(t, admin.token, n));
    }
    // three tagged, the fourth with another tag; a group's ticket tagged too
    for (const ticket of tickets.slice(0, 3))
      expect((await t.http.put(`/ticket-tags/${ticket.id}/${tag.id}`, { token: admin.token })).status).toBe(200);
    await t.http.put(`/ticket-tags/${tickets[3]!.id}/${other.id}`, { token: admin.token });
    // a company that takes group messages (CheckMsgIsGroup disabled; enabled, the default, ignores them)
    await c.settingKept('CheckMsgIsGroup', 'disabled');
    const groupId = `120363${randomInt(100_000_000, 999_999_999)}`;
    const group: WaInboundMessage = {
      companyId: c.companyId,
      connectionId: conn.id,
      waMessageId: `G${randomUUID().replace(/-/g, '').slice(0, 16)}`,
      from: groupId,
      fromName: 'Grupo',
      body: 'oi grupo',
      mediaType: 'chat',
      fromMe: false,
      isGroup: true,
      timestamp: Date.now(),
    };
    await t.bus.publish(WaSubjects.inbound(c.companyId, conn.id, groupId), group, {
      msgId: WaSubjects.inboundMsgId(conn.id, group.waMessageId),
    });
    const groupTicket = await ticketOfNumber(t, admin.token, groupId);
    expect((await t.http.put(`/ticket-tags/${groupTicket.id}/${tag.id}`, { token: admin.token })).status).toBe(200);

    const path = `/internal/companies/${c.companyId}/tags/${tag.id}/contacts`;
    const expected = tickets
      .slice(0, 3)
      .map((x) => x.contact.id)
      .sort((a, b) => a - b);
    const first = await t.http.get(`${path}?limit=2`, { token: serviceToken });
    expect(first.status).toBe(200);
    expect(first.body.contacts.map((x: { id: number }) => x.id)).toEqual(expected.slice(0, 2));
    expect(first.body.nextAfterId).toBe(expected[1]);
    const contact = first.body.contacts[0];
    expect(contact).toEqual({
      id: expected[0],
      name: expect.stringMatching(/^Cliente /),
      number: expect.stringMatching(/^55119/),
      email: '',
    });
    const second = await t.http.get(`${path}?limit=2&afterId=${first.body.nextAfterId}`, { token: serviceToken });
    expect(second.body).toEqual({ contacts: [expect.objectContaining({ id: expected[2] })], nextAfterId: null });
    // the default page holds them all
    expect((await t.http.get(path, { token: serviceToken })).body.contacts.map((x: { id: number }) => x.id)).toEqual(expected);

    // a user's token (even an admin's) or none is refused; another company's tag or a bad page is not answered
    expect((await t.http.get(path, { token: admin.token })).status).toBe(401);
    expect((await t.http.get(path)).status).toBe(401);
    const stranger = new TestCompany(t);
    expect((await t.http.get(`/internal/companies/${stranger.companyId}/tags/${tag.id}/contacts`, { token: serviceToken })).status).toBe(
      404,
    );
    expect((await t.http.get(`/internal/companies/${c.companyId}/tags/99999999999/contacts`, { token: serviceToken })).status).toBe(404);
    expect((await t.http.get(`${path}?limit=1001`, { token: serviceToken })).status).toBe(400);
    expect((await t.http.get(`${path}?afterId=x`, { token: serviceToken })).status).toBe(400);
  });

  it("answers a file list's files with their storage keys and kinds; another company's list is not found", async () => {
    const { c, admin } = await company();
    const created = await t.http.post('/files', {
      token: admin.token,
      body: { name: 'Catálogo', message: 'Veja nosso catálogo', options: [{ name: 'Foto' }, { name: 'Tabela' }, { name: 'Sem arquivo' }] },
    });
    expect(created.status).toBe(201);
    const list = created.body as { id: number; options: Array<{ id: number; name: string }> };
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(pngFile())], { type: 'image/png' }), 'foto.png');
    form.append('files', new Blob([new Uint8Array(pdfFile())], { type: 'application/pdf' }), 'tabela.pdf');
    form.append('id', String(list.options[0]!.id));
    form.append('id', String(list.options[1]!.id));
    expect((await t.http.post(`/files/uploadList/${list.id}`, { token: admin.token, form })).status).toBe(200);

    const res = await t.http.get(`/internal/companies/${c.companyId}/file-lists/${list.id}`, { token: serviceToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: list.id,
      name: 'Catálogo',
      message: 'Veja nosso catálogo',
      files: [
        {
          name: 'Foto',
          key: expect.stringMatching(new RegExp(`^${c.companyId}/.+/foto\\.png$`)),
          mimetype: 'image/png',
          fileName: 'foto.png',
          size: pngFile().length,
          mediaType: 'image',
        },
        {
          name: 'Tabela',
          key: expect.stringMatching(new RegExp(`^${c.companyId}/.+\\.pdf$`)),
          mimetype: 'application/pdf',
          fileName: expect.stringMatching(/\.pdf$/),
          size: pdfFile().length,
          mediaType: 'application',
        },
      ],
    });
    expect((await t.http.get(`/internal/companies/${c.companyId}/file-lists/${list.id}`, { token: admin.token })).status).toBe(401);
    const stranger = new TestCompany(t);
    expect((await t.http.get(`/internal/companies/${stranger.companyId}/file-lists/${list.id}`, { token: serviceToken })).status).toBe(404);
  });
});

describe('a contact answering a campaign (issue 40 item 9)', () => {
  const db = () => t.app.get(getDataSourceToken()) as DataSource;

  async function campaignSent(c: TestCompany, connectionId: number, number: string, fields: Partial<CampaignMessageSent> = {}) {
    const sent: CampaignMessageSent = {
      companyId: c.companyId,
      connectionId,
      campaignId: randomInt(1, 1_000_000),
      number,
      waMessageId: `3EB0${randomUUID().replace(/-/g, '').slice(0, 16).toUpperCase()}`,
      body: 'Olá! Temos uma oferta para você. Responda SIM para saber mais.',
      sentAt: Date.now(),
      ...fields,
    };
    await t.bus.publish(CampaignSubjects.sent(c.companyId, connectionId), sent, { msgId: `campaign-sent:${sent.waMessageId}` });
    return sent;
  }

  /** Waits until tickets kept it (its consumer is asynchronous). */
  const kept = (c: TestCompany, wid: string) =>
    waitFor(
      async () =>
        ((await db().query(`SELECT 1 FROM tickets.campaign_messages WHERE "companyId" = $1 AND wid = $2`, [c.companyId, wid])) as unknown[])
          .length > 0,
    );

  const messagesOf = async (token: string, ticketId: number) =>
    (await t.http.get(`/messages/${ticketId}`, { token })).body.messages as Array<{
      id: number;
      wid: string;
      body: string;
      fromMe: boolean;
      ack: number;
      createdAt: string;
    }>;

  it('shows the campaign message before the answer in the new ticket, once, as ours; the send itself opened no ticket; a later ack finds it', async () => {
    const { c, admin, conn } = await company();
    const number = mobile();
    // WhatsApp's old form of the number: the contact is kept under the one form
    const sent = await campaignSent(c, conn.id, oldForm(number));
    await kept(c, sent.waMessageId);
    expect((await t.http.get(`/tickets?showAll=true&searchParam=${number}`, { token: admin.token })).body.tickets).toEqual([]);

    await c.inbound(conn.id, number, 'SIM, quero saber');
    const ticket = await ticketOfNumber(t, admin.token, number);
    expect(ticket.lastMessage).toBe('SIM, quero saber');
    expect(ticket.unreadMessages).toBe(1);
    const messages = await waitFor(async () => {
      const all = await messagesOf(admin.token, ticket.id);
      return all.length === 2 ? all : undefined;
    });
    expect(messages.map((m) => [m.body, m.fromMe, m.wid])).toEqual([
      [sent.body, true, sent.waMessageId],
      ['SIM, quero saber', false, expect.any(String)],
    ]);
    expect(messages[0]!.ack).toBe(1);
    expect(Date.parse(messages[0]!.createdAt)).toBeLessThan(Date.parse(messages[1]!.createdAt));

    // WhatsApp's later ack of the campaign message reaches it
    await t.bus.publish(
      WaSubjects.ack(c.companyId, conn.id, number),
      { companyId: c.companyId, connectionId: conn.id, waMessageId: sent.waMessageId, ack: 4, at: Date.now() },
      { msgId: `${conn.id}:${sent.waMessageId}:ack4` },
    );
    await waitFor(async () => (await messagesOf(admin.token, ticket.id))[0]?.ack === 4);

    // once: the next conversation of the contact does not show it again
    expect((await t.http.put(`/tickets/${ticket.id}`, { token: admin.token, body: { status: 'closed' } })).status).toBe(200);
    await c.inbound(conn.id, number, 'Oi de novo');
    const next = await waitFor(async () => {
      const found = await ticketOfNumber(t, admin.token, number);
      return found.id !== ticket.id ? found : undefined;
    });
    await waitFor(async () => (await messagesOf(admin.token, next.id)).length === 1);
    expect((await messagesOf(admin.token, next.id)).map((m) => m.body)).toEqual(['Oi de novo']);
  });

  it('shows nothing for a message of another connection, older than 7 days, or when the contact was already talking', async () => {
    const { c, admin, conn } = await company();
    const other = await c.connection();
    const [a, b, d] = [mobile(), mobile(), mobile()];
    const elsewhere = await campaignSent(c, other.id, a);
    const old = await campaignSent(c, conn.id, b, { sentAt: Date.now() - 8 * 86_400_000 });
    // d is in a conversation already when the campaign reaches them: the open ticket gets nothing
    await c.inbound(conn.id, d, 'oi');
    const open = await ticketOfNumber(t, admin.token, d);
    const running = await campaignSent(c, conn.id, d);
    for (const s of [elsewhere, old, running]) await kept(c, s.waMessageId);

    await c.inbound(conn.id, a, 'resposta A');
    await c.inbound(conn.id, b, 'resposta B');
    await c.inbound(conn.id, d, 'resposta D');
    for (const [n, body] of [
      [a, 'resposta A'],
      [b, 'resposta B'],
    ] as const) {
      const ticket = await ticketOfNumber(t, admin.token, n);
      await waitFor(async () => (await messagesOf(admin.token, ticket.id)).length >= 1);
      expect((await messagesOf(admin.token, ticket.id)).map((m) => m.body)).toEqual([body]);
    }
    await waitFor(async () => (await messagesOf(admin.token, open.id)).length === 2);
    expect((await messagesOf(admin.token, open.id)).map((m) => m.body)).toEqual(['oi', 'resposta D']);
  });
});
