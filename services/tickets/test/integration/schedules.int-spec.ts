import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { WaSubjects, type ScheduleDto, type WaOutboundSend } from '@wa/contracts';
import { mediaForm, pdfFile, pngFile, waitFor } from '@wa/testing';
import { randomNumber, startTickets, TestCompany, ticketOfNumber, type TicketsUnderTest } from './harness.js';

let t: TicketsUnderTest;

beforeAll(async () => {
  // a failing send is tried twice, 200 ms apart, before it is marked ERRO
  t = await startTickets({ SCHEDULE_ATTEMPTS: '2', SCHEDULE_BACKOFF_MS: '200' });
});

afterAll(async () => {
  await t?.close();
});

const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A company with a connected connection and a contact whose conversation is closed. */
async function setup(connection: { status?: string } = {}) {
  const c = new TestCompany(t);
  const admin = await c.user('admin');
  const agent = await c.user('user');
  const conn = await c.connection({ status: 'CONNECTED' });
  const number = randomNumber();
  await c.inbound(conn.id, number, 'oi', { name: 'Joana Prado' });
  const first = await ticketOfNumber(t, admin.token, number);
  expect((await t.http.put(`/tickets/${first.id}`, { token: admin.token, body: { status: 'closed' } })).status).toBe(200);
  if (connection.status)
    await c.connection({ id: conn.id, status: connection.status, updatedAt: new Date(Date.now() + 1000).toISOString() });
  return { c, admin, agent, conn, number, contactId: first.contact.id as number, closedTicketId: first.id as number };
}

/** Every send published for a connection's session while `during` runs (and `settleMs` after). */
async function outboundDuring(connectionId: number, during: () => Promise<unknown>, settleMs = 1500): Promise<WaOutboundSend[]> {
  const seen: WaOutboundSend[] = [];
  const sub = t.bus.connection.subscribe(WaSubjects.outbound(connectionId));
  const reading = (async () => {
    for await (const m of sub) seen.push(m.json());
  })();
  await during();
  await sleep(settleMs);
  sub.unsubscribe();
  await reading;
  return seen;
}

const schedule = (token: string, body: Record<string, unknown>) => t.http.post('/schedules', { token, body });

describe('scheduled messages (spec 01 §3, §5, §7 "schedules")', () => {
  it('sends at its time exactly once, into a new ticket of its author, then reuses the open ticket; records sentAt and ENVIADA', async () => {
    const { agent, conn, number, contactId, closedTicketId } = await setup();
    let first: ScheduleDto | undefined;
    const sent = await outboundDuring(conn.id, async () => {
      const res = await schedule(agent.token, { body: 'Olá {{firstName}}, seu pedido saiu!', contactId, sendAt: inMs(1200) });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        status: 'PENDENTE',
        sentAt: null,
        contactId,
        contact: { name: 'Joana Prado', number },
        userId: agent.id,
      });
      const id = res.body.id as number;
      first = await waitFor(async () => {
        const s = (await t.http.get(`/schedules/${id}`, { token: agent.token })).body as ScheduleDto;
        return s.status === 'ENVIADA' ? s : undefined;
      });
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ to: number, body: 'Olá Joana, seu pedido saiu!' });
    const s = first as ScheduleDto;
    expect(s.sentAt).not.toBeNull();
    // it fired at its time, not before
    expect(new Date(s.sentAt as string).getTime()).toBeGreaterThanOrEqual(new Date(s.sendAt).getTime());
    expect(s.ticketId).not.toBe(closedTicketId);
    const ticket = (await t.http.get(`/tickets/${s.ticketId}`, { token: agent.token })).body;
    expect(ticket).toMatchObject({ status: 'open', userId: agent.id, lastMessage: 'Olá Joana, seu pedido saiu!' });
    const messages = (await t.http.get(`/messages/${s.ticketId}`, { token: agent.token })).body.messages;
    expect(messages.map((m: { body: string; fromMe: boolean }) => [m.body, m.fromMe])).toEqual([['Olá Joana, seu pedido saiu!', true]]);

    // a second one goes into the ticket that is still open
    const again = await outboundDuring(conn.id, async () => {
      const res = await schedule(agent.token, { body: 'Chegou aí?', contactId, sendAt: inMs(300) });
      await waitFor(async () => (await t.http.get(`/schedules/${res.body.id}`, { token: agent.token })).body.status === 'ENVIADA');
      expect((await t.http.get(`/schedules/${res.body.id}`, { token: agent.token })).body.ticketId).toBe(s.ticketId);
    });
    expect(again.map((m) => m.body)).toEqual(['Chegou aí?']);
    // sent: it stays as it went (no edit, no new picture), and can be removed from the list
    const edit = await t.http.put(`/schedules/${s.id}`, { token: agent.token, body: { body: 'mudou de ideia' } });
    expect({ status: edit.status, error: edit.body.error }).toEqual({ status: 409, error: 'ERR_SCHEDULE_ALREADY_SENT' });
    expect((await t.http.delete(`/schedules/${s.id}`, { token: agent.token })).status).toBe(200);
    expect((await t.http.get(`/schedules/${s.id}`, { token: agent.token })).status).toBe(404);
  });

  it("many due at the same instant go out once each, into their contacts' tickets; a company whose phone is down holds back none of another's", async () => {
    const a = await setup();
    const down = await setup({ status: 'DISCONNECTED' });
    const second = randomNumber();
    await a.c.inbound(a.conn.id, second, 'olá', { name: 'Caio Lima' });
    const secondTicket = await ticketOfNumber(t, a.admin.token, second);
    const at = inMs(1500);
    const mine: ScheduleDto[] = [];
    const theirs: ScheduleDto[] = [];
    const sent = await outboundDuring(a.conn.id, async () => {
      for (let i = 0; i < 24; i++) {
        const contactId = i % 2 === 0 ? a.contactId : (secondTicket.contact.id as number);
        mine.push((await schedule(a.admin.token, { body: `lote das 9 número ${i}`, contactId, sendAt: at })).body as ScheduleDto);
        if (i % 4 === 0)
          theirs.push(
            (await schedule(down.admin.token, { body: `fila parada ${i}`, contactId: down.contactId, sendAt: at })).body as ScheduleDto,
          );
      }
      await waitFor(async () => {
        const list = (await t.http.get('/schedules?searchParam=lote das 9', { token: a.admin.token })).body.schedules as ScheduleDto[];
        return list.length === 24 && list.every((s) => s.status === 'ENVIADA');
      });
    });
    expect(sent.map((m) => m.body).sort()).toEqual(mine.map((s) => s.body).sort());
    const byNumber = new Map<string, number>();
    for (const m of sent) byNumber.set(m.to, (byNumber.get(m.to) ?? 0) + 1);
    expect(Object.fromEntries(byNumber)).toEqual({ [a.number]: 12, [second]: 12 });
    // one ticket per contact: the second contact's own (still open), and one new for the first (closed before)
    const tickets = new Set(
      await Promise.all(mine.map(async (s) => (await t.http.get(`/schedules/${s.id}`, { token: a.admin.token })).body.ticketId as number)),
    );
    expect(tickets.size).toBe(2);
    expect(tickets.has(secondTicket.id as number)).toBe(true);
    const messages = (await t.http.get(`/messages/${secondTicket.id}`, { token: a.admin.token })).body.messages as Array<{ body: string }>;
    expect(messages.filter((m) => m.body.startsWith('lote das 9'))).toHaveLength(12);
    // the other company's phone is down: its schedules end in ERRO with the reason, none sent
    for (const s of theirs) {
      const failed = await waitFor(async () => {
        const got = (await t.http.get(`/schedules/${s.id}`, { token: down.admin.token })).body as ScheduleDto;
        return got.status === 'ERRO' ? got : undefined;
      });
      expect(failed.reason).toContain('ERR_WAPP_NOT_INITIALIZED');
    }
  });

  it('an edit before sendAt moves the send; a delete cancels it', async () => {
    const { admin, conn, contactId } = await setup();
    const sent = await outboundDuring(
      conn.id,
      async () => {
        const moved = (await schedule(admin.token, { body: 'mensagem movida', contactId, sendAt: inMs(800) })).body as ScheduleDto;
        const cancelled = (await schedule(admin.token, { body: 'mensagem cancelada', contactId, sendAt: inMs(800) })).body as ScheduleDto;
        const later = inMs(2500);
        const put = await t.http.put(`/schedules/${moved.id}`, {
          token: admin.token,
          body: { sendAt: later, body: 'mensagem movida e editada' },
        });
        expect(put.status).toBe(200);
        expect(put.body).toMatchObject({ sendAt: later, body: 'mensagem movida e editada', status: 'PENDENTE' });
        expect((await t.http.delete(`/schedules/${cancelled.id}`, { token: admin.token })).status).toBe(200);
        await sleep(1500);
        // the old time passed: nothing went
        expect((await t.http.get(`/schedules/${moved.id}`, { token: admin.token })).body.status).toBe('PENDENTE');
        await waitFor(async () => (await t.http.get(`/schedules/${moved.id}`, { token: admin.token })).body.status === 'ENVIADA');
      },
      1000,
    );
    expect(sent.map((m) => m.body)).toEqual(['mensagem movida e editada']);
  });

  it('marks ERRO with the reason when the connection cannot send after its retries; saving it again tries again', async () => {
    const { c, admin, conn, contactId } = await setup({ status: 'DISCONNECTED' });
    const res = await schedule(admin.token, { body: 'vai falhar agora', contactId, sendAt: inMs(200) });
    const failed = await waitFor(async () => {
      const s = (await t.http.get(`/schedules/${res.body.id}`, { token: admin.token })).body as ScheduleDto;
      return s.status === 'ERRO' ? s : undefined;
    });
    expect(failed.reason).toContain('ERR_WAPP_NOT_INITIALIZED');
    expect(failed.sentAt).toBeNull();
    // back online: saving it again (same or new time) sends it
    await c.connection({ id: conn.id, status: 'CONNECTED', updatedAt: new Date(Date.now() + 2000).toISOString() });
    const sent = await outboundDuring(conn.id, async () => {
      const put = await t.http.put(`/schedules/${failed.id}`, { token: admin.token, body: { sendAt: inMs(200) } });
      expect(put.body).toMatchObject({ status: 'PENDENTE', reason: null });
      await waitFor(async () => (await t.http.get(`/schedules/${failed.id}`, { token: admin.token })).body.status === 'ENVIADA');
    });
    expect(sent.map((m) => m.body)).toEqual(['vai falhar agora']);
  });

  it('sends its picture (png/jpg/jpeg only) with the text as caption; the picture can be removed before', async () => {
    const { admin, conn, contactId } = await setup();
    const s = (await schedule(admin.token, { body: 'Segue o cardápio', contactId, sendAt: inMs(60_000) })).body as ScheduleDto;
    const upload = (name: string, data: Buffer, type?: string) =>
      t.http.post(`/schedules/${s.id}/media-upload`, { token: admin.token, form: mediaForm([{ field: 'file', name, data, type }]) });
    const pdf = await upload('cardapio.pdf', pdfFile('x'));
    expect({ status: pdf.status, error: pdf.body.error }).toEqual({ status: 400, error: 'ERR_VALIDATION' });
    expect(JSON.stringify(pdf.body)).toContain('Apenas arquivos png, jpg e jpeg');
    // a picture named like a png but not one by its bytes
    expect((await upload('falso.png', pdfFile('y'), 'image/png')).status).toBe(400);
    const ok = await upload('cardápio.png', pngFile());
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ mediaName: 'cardapio.png' });
    expect(ok.body.mediaPath).toMatch(/^\/media\//);
    const removed = await t.http.delete(`/schedules/${s.id}/media-upload`, { token: admin.token });
    expect(removed.body).toMatchObject({ mediaPath: null, mediaName: null });
    expect((await upload('cardapio.png', pngFile())).status).toBe(200);
    const sent = await outboundDuring(conn.id, async () => {
      expect((await t.http.put(`/schedules/${s.id}`, { token: admin.token, body: { sendAt: inMs(200) } })).status).toBe(200);
      await waitFor(async () => (await t.http.get(`/schedules/${s.id}`, { token: admin.token })).body.status === 'ENVIADA');
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      body: 'Segue o cardápio',
      media: { mediaType: 'image', mimetype: 'image/png', fileName: 'cardapio.png' },
    });
  });

  it("validates with the spec's texts, reads a time without offset on the company's clocks, pages and searches", async () => {
    const { admin, agent, contactId } = await setup();
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ body: 'oi', contactId, sendAt: inMs(60_000) }, 'Mensagem muito curta'],
      [{ body: 'a     ', contactId, sendAt: inMs(60_000) }, 'Mensagem muito curta'],
      [{ contactId, sendAt: inMs(60_000) }, 'Obrigatório'],
      [{ body: 'mensagem ok', sendAt: inMs(60_000) }, 'Obrigatório'],
      [{ body: 'mensagem ok', contactId }, 'Obrigatório'],
      [{ body: 'mensagem ok', contactId, sendAt: 'amanhã cedo' }, 'Data inválida'],
      [{ body: 'mensagem ok', contactId, sendAt: '2030-02-31T10:00' }, 'Data inválida'],
      [{ body: 'mensagem ok', contactId: 'abc', sendAt: inMs(60_000) }, 'Obrigatório'],
    ];
    for (const [body, text] of bad) {
      const res = await schedule(admin.token, body);
      expect({ body, status: res.status, error: res.body.error }).toEqual({ body, status: 400, error: 'ERR_VALIDATION' });
      expect(JSON.stringify(res.body)).toContain(text);
    }
    expect((await schedule(admin.token, { body: 'mensagem ok', contactId: 999_999_999, sendAt: inMs(60_000) })).body.error).toBe(
      'ERR_NO_CONTACT_FOUND',
    );
    expect((await t.http.get('/schedules', { token: admin.token })).body).toEqual({ schedules: [], hasMore: false, count: 0 });

    // what a datetime-local field sends: 10:00 in São Paulo (the default time zone) is 13:00 UTC
    const local = await schedule(admin.token, { body: 'Lembrete da consulta', contactId, sendAt: '2030-01-15T10:00' });
    expect(local.body.sendAt).toBe('2030-01-15T13:00:00.000Z');
    for (let i = 0; i < 41; i++)
      await schedule(agent.token, {
        body: `lembrete número ${i}`,
        contactId,
        sendAt: `2030-02-01T${String(8 + (i % 10)).padStart(2, '0')}:${String(i).padStart(2, '0')}`,
      });
    const page1 = (await t.http.get('/schedules?pageNumber=1', { token: admin.token })).body;
    expect(page1).toMatchObject({ hasMore: true, count: 42 });
    expect(page1.schedules).toHaveLength(40);
    expect(page1.schedules[0].body).toBe('Lembrete da consulta');
    expect((await t.http.get('/schedules?pageNumber=2', { token: admin.token })).body.schedules).toHaveLength(2);
    // an agent sees their own only
    expect((await t.http.get('/schedules', { token: agent.token })).body.count).toBe(41);
    expect((await t.http.get(`/schedules/${local.body.id}`, { token: agent.token })).status).toBe(404);
    // search by text or contact, and the calendar's range
    expect(
      (await t.http.get('/schedules?searchParam=CONSULTA', { token: admin.token })).body.schedules.map((s: ScheduleDto) => s.id),
    ).toEqual([local.body.id]);
    expect((await t.http.get('/schedules?searchParam=joana', { token: admin.token })).body.count).toBe(42);
    expect((await t.http.get('/schedules?searchParam=%25', { token: admin.token })).body.count).toBe(0);
    expect((await t.http.get('/schedules?from=2030-01-01T00:00&to=2030-01-31T00:00', { token: admin.token })).body.count).toBe(1);
    expect((await t.http.get('/schedules?from=ontem', { token: admin.token })).status).toBe(400);
    expect((await t.http.get(`/schedules?contactId=${contactId}`, { token: agent.token })).body.count).toBe(41);
  });

  it('another company reaches none of them', async () => {
    const { admin, contactId } = await setup();
    const b = new TestCompany(t);
    const adminB = await b.user('admin');
    const mine = (await schedule(admin.token, { body: 'só da empresa A', contactId, sendAt: inMs(60_000) })).body as ScheduleDto;
    expect((await t.http.get(`/schedules/${mine.id}`, { token: adminB.token })).status).toBe(404);
    expect((await t.http.put(`/schedules/${mine.id}`, { token: adminB.token, body: { body: 'invadido!' } })).status).toBe(404);
    expect((await t.http.delete(`/schedules/${mine.id}`, { token: adminB.token })).status).toBe(404);
    expect(
      (
        await t.http.post(`/schedules/${mine.id}/media-upload`, {
          token: adminB.token,
          form: mediaForm([{ field: 'file', name: 'a.png', data: pngFile() }]),
        })
      ).status,
    ).toBe(404);
    expect((await t.http.get('/schedules', { token: adminB.token })).body.count).toBe(0);
    // nor schedule for A's contact
    expect((await schedule(adminB.token, { body: 'para o contato de A', contactId, sendAt: inMs(60_000) })).body.error).toBe(
      'ERR_NO_CONTACT_FOUND',
    );
    expect((await t.http.get(`/schedules/${mine.id}`, { token: admin.token })).body.body).toBe('só da empresa A');
  });
});
