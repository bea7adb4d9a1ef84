import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sessionCommandSubject, type NumberCheckCommand } from '@wa/contracts';
import { serve } from '@wa/event-bus';
import { waitFor } from '@wa/testing';
import ExcelJS from 'exceljs';
import { NO_PICTURE, pictureAsked, randomNumber, startTickets, TestCompany, ticketOfNumber, type TicketsUnderTest } from './harness.js';

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
  const agent = await c.user('user', [], 'Bruno Agente');
  return { c, admin, agent };
}

/**
 * Stands in for the whatsapp-sessions process holding a connection's session: answers its `check`
 * commands over NATS as the sandbox does (12–13 digits are on WhatsApp). Answers what it was asked.
 */
function sessionHolder(connectionId: number) {
  const asked: string[] = [];
  const stop = serve(t.bus, sessionCommandSubject(connectionId), (payload) => {
    if (pictureAsked(payload)) return NO_PICTURE;
    const cmd = payload as NumberCheckCommand;
    asked.push(cmd.number);
    const exists = /^\d{12,13}$/.test(cmd.number);
    return { ok: true, result: { exists, jid: exists ? `${cmd.number}@s.whatsapp.net` : null } };
  });
  return { asked, stop };
}

/** A number the sandbox rule calls not on WhatsApp but a valid phone number: 11 digits (a US number). */
const NOT_ON_WHATSAPP = '14155552671';

describe('contacts (spec 01 §2, §5, §7: GET/POST /contacts, /contacts/list, GET/PUT/DELETE /contacts/{id})', () => {
  it('creates a contact with extra info under its canonical number, checked on WhatsApp through the default connection', async () => {
    const { c, agent } = await company();
    const conn = await c.connection({ isDefault: true });
    const holder = sessionHolder(conn.id);
    try {
      const res = await t.http.post('/contacts', {
        token: agent.token,
        body: {
          name: 'Carla Dias',
          number: '+55 (11) 98765-4321',
          email: 'carla@example.com',
          extraInfo: [
            { name: 'CPF', value: '123' },
            { name: '  ', value: 'sem nome' },
          ],
        },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        name: 'Carla Dias',
        number: '5511987654321',
        email: 'carla@example.com',
        extraInfo: [{ name: 'CPF', value: '123' }],
        isWhatsappValid: true,
        invalido: false,
      });
      expect(res.body.alreadyExists).toBeUndefined();
      expect(holder.asked).toEqual(['5511987654321']);

      // the same person typed the old way (no 9th digit) is the same contact
      const again = await t.http.post('/contacts', { token: agent.token, body: { name: 'Outra Carla', number: '11 8765-4321' } });
      expect(again.body).toMatchObject({ id: res.body.id, name: 'Carla Dias', alreadyExists: true, existingContact: { id: res.body.id } });

      // WhatsApp does not know this one: kept, flagged, and no conversation can be opened with it
      const invalid = await t.http.post('/contacts', { token: agent.token, body: { name: 'Fora', number: NOT_ON_WHATSAPP } });
      expect(invalid.body).toMatchObject({ number: NOT_ON_WHATSAPP, isWhatsappValid: false, invalido: true });
      const ticket = await t.http.post('/tickets', {
        token: (await c.user('admin')).token,
        body: { contactId: invalid.body.id, whatsappId: conn.id, status: 'open' },
      });
      expect({ status: ticket.status, error: ticket.body.error }).toEqual({ status: 400, error: 'ERR_WAPP_INVALID_CONTACT' });
    } finally {
      holder.stop();
    }
  });

  it('keeps a contact whose number nobody can check (no session running) unchecked, and checks it when a ticket opens', async () => {
    const { c, admin } = await company();
    const conn = await c.connection({ isDefault: true });
    const created = await t.http.post('/contacts', { token: admin.token, body: { name: 'Davi', number: '5521998887766' } });
    expect(created.body).toMatchObject({ isWhatsappValid: null, invalido: false });
    const holder = sessionHolder(conn.id);
    try {
      const opened = await t.http.post('/tickets', {
        token: admin.token,
        body: { contactId: created.body.id, whatsappId: conn.id, status: 'open' },
      });
      expect(opened.status).toBe(201);
      expect(holder.asked).toEqual(['5521998887766']);
      expect((await t.http.get(`/contacts/${created.body.id}`, { token: admin.token })).body.isWhatsappValid).toBe(true);
    } finally {
      holder.stop();
    }
  });

  it('refuses to open a conversation with ERR_WAPP_CHECK_CONTACT when the phone is up but WhatsApp fails to answer the check', async () => {
    const { c, admin } = await company();
    const conn = await c.connection({ isDefault: true });
    const created = await t.http.post('/contacts', { token: admin.token, body: { name: 'Fábio', number: '5521997776655' } });
    const stop = serve(t.bus, sessionCommandSubject(conn.id), () => ({ ok: false, code: 'ERR_INTERNAL' }));
    try {
      const opened = await t.http.post('/tickets', {
        token: admin.token,
        body: { contactId: created.body.id, whatsappId: conn.id, status: 'open' },
      });
      expect({ status: opened.status, error: opened.body.error }).toEqual({ status: 400, error: 'ERR_WAPP_CHECK_CONTACT' });
      // nothing was opened, and the contact stays unchecked
      expect((await t.http.get(`/tickets?showAll=true&searchParam=5521997776655`, { token: admin.token })).body.tickets).toEqual([]);
      expect((await t.http.get(`/contacts/${created.body.id}`, { token: admin.token })).body.isWhatsappValid).toBeNull();
    } finally {
      stop();
    }
  });

  it('a customer writing for the first time is announced to the contacts pages (contact.updated); their next messages are not', async () => {
    const { c } = await company();
    const conn = await c.connection();
    const from = `55319${Math.floor(Math.random() * 90_000_000) + 10_000_000}`;
    const sub = t.bus.connection.subscribe(`contact.updated.${c.companyId}.>`, { timeout: 10_000 });
    const seen: Array<{ contact: { number: string; name: string } }> = [];
    const reading = (async () => {
      for await (const m of sub) seen.push(m.json());
    })().catch(() => undefined);
    await c.inbound(conn.id, from, 'primeira mensagem', { name: 'Gabriela' });
    await waitFor(async () => seen.length === 1);
    expect(seen[0].contact).toMatchObject({ number: from, name: 'Gabriela' });
    await c.inbound(conn.id, from, 'segunda mensagem', { name: 'Gabriela' });
    await new Promise((r) => setTimeout(r, 1000));
    expect(seen).toHaveLength(1);
    sub.unsubscribe();
    await reading;
  });

  it('one contact for the inbound old and new forms of a Brazilian mobile', async () => {
    const { c, admin } = await company();
    const conn = await c.connection();
    const tail = String(Math.floor(Math.random() * 9_000_000) + 1_000_000);
    await c.inbound(conn.id, `55318${tail}`, 'oi (sem o nono dígito)', { name: 'Elisa' });
    const ticket = await ticketOfNumber(t, admin.token, `553198${tail}`);
    await c.inbound(conn.id, `553198${tail}`, 'oi de novo', { name: 'Elisa' });
    await waitFor(async () => (await t.http.get(`/messages/${ticket.id}`, { token: admin.token })).body.messages?.length === 2);
    const found = await t.http.get(`/contacts?searchParam=${tail}`, { token: admin.token });
    expect(found.body).toMatchObject({ count: 1, contacts: [{ number: `553198${tail}`, name: 'Elisa' }] });
  });

  it('pages by name with a count, searches name, number and email, and filters by creation day', async () => {
    const { admin } = await company();
    const names = Array.from({ length: 25 }, (_, i) => `Pessoa ${String(i).padStart(2, '0')}`);
    for (const [i, name] of names.entries()) {
      await t.http.post('/contacts', {
        token: admin.token,
        body: { name, number: `55119${String(70000000 + i)}`, email: i === 7 ? 'sete_x@empresa.com' : '' },
      });
    }
    const first = await t.http.get('/contacts', { token: admin.token });
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(25);
    expect(first.body.hasMore).toBe(true);
    expect(first.body.contacts.map((x: { name: string }) => x.name)).toEqual(names.slice(0, 20));
    const second = await t.http.get('/contacts?pageNumber=2', { token: admin.token });
    expect({ n: second.body.contacts.length, hasMore: second.body.hasMore }).toEqual({ n: 5, hasMore: false });

    expect((await t.http.get('/contacts?searchParam=pessoa 1', { token: admin.token })).body.count).toBe(10);
    expect(
      (await t.http.get('/contacts?searchParam=70000003', { token: admin.token })).body.contacts.map((x: { name: string }) => x.name),
    ).toEqual(['Pessoa 03']);
    // an underscore is a character, not a LIKE wildcard
    expect(
      (await t.http.get('/contacts?searchParam=sete_x', { token: admin.token })).body.contacts.map((x: { name: string }) => x.name),
    ).toEqual(['Pessoa 07']);
    expect((await t.http.get('/contacts?searchParam=setexx', { token: admin.token })).body.count).toBe(0);

    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
    expect((await t.http.get(`/contacts?date=${today}`, { token: admin.token })).body.count).toBe(25);
    expect((await t.http.get(`/contacts?dateStart=${today}&dateEnd=${today}`, { token: admin.token })).body.count).toBe(25);
    expect((await t.http.get('/contacts?dateEnd=2020-01-01', { token: admin.token })).body.count).toBe(0);
    expect((await t.http.get('/contacts/list', { token: admin.token })).body).toHaveLength(25);
  });

  it('edits a contact (a number taken by another is ERR_DUPLICATED_CONTACT) and lets only admins delete, with its tickets', async () => {
    const { c, admin, agent } = await company();
    const conn = await c.connection();
    const a = (await t.http.post('/contacts', { token: agent.token, body: { name: 'Fábio', number: randomNumber() } })).body;
    const b = (await t.http.post('/contacts', { token: agent.token, body: { name: 'Gabi', number: randomNumber() } })).body;
    const edited = await t.http.put(`/contacts/${a.id}`, {
      token: agent.token,
      body: { name: 'Fábio Lima', email: 'fabio@example.com', extraInfo: [{ name: 'Empresa', value: 'ACME' }] },
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      id: a.id,
      name: 'Fábio Lima',
      number: a.number,
      email: 'fabio@example.com',
      extraInfo: [{ name: 'Empresa', value: 'ACME' }],
    });
    const taken = await t.http.put(`/contacts/${a.id}`, { token: agent.token, body: { number: b.number } });
    expect({ status: taken.status, error: taken.body.error }).toEqual({ status: 409, error: 'ERR_DUPLICATED_CONTACT' });

    const ticket = await t.http.post('/tickets', { token: admin.token, body: { contactId: a.id, whatsappId: conn.id, status: 'open' } });
    expect(ticket.status).toBe(201);
    const events = t.bus.connection.subscribe(`*.deleted.${c.companyId}.*`, { max: 2, timeout: 10_000 });
    expect((await t.http.delete(`/contacts/${a.id}`, { token: agent.token })).status).toBe(403);
    expect((await t.http.delete(`/contacts/${a.id}`, { token: admin.token })).status).toBe(200);
    const subjects: string[] = [];
    for await (const m of events) subjects.push(m.subject);
    expect(subjects.sort()).toEqual([`contact.deleted.${c.companyId}.${a.id}`, `ticket.deleted.${c.companyId}.${ticket.body.id}`]);
    expect((await t.http.get(`/contacts/${a.id}`, { token: admin.token })).body.error).toBe('ERR_NO_CONTACT_FOUND');
    expect((await t.http.get(`/tickets/${ticket.body.id}`, { token: admin.token })).body.error).toBe('ERR_NO_TICKET_FOUND');
  });

  it('announces every change as company-scoped contact.updated', async () => {
    const { c, agent } = await company();
    const events = t.bus.connection.subscribe(`contact.updated.${c.companyId}.*`, { max: 2, timeout: 10_000 });
    const created = await t.http.post('/contacts', { token: agent.token, body: { name: 'Helena', number: randomNumber() } });
    await t.http.put(`/contacts/${created.body.id}`, { token: agent.token, body: { name: 'Helena Souza' } });
    const names: string[] = [];
    for await (const m of events) names.push((m.json() as { contact: { name: string } }).contact.name);
    expect(names).toEqual(['Helena', 'Helena Souza']);
  });

  it('refuses bad input with the form texts and writes nothing', async () => {
    const { admin } = await company();
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ number: '5511987650000' }, 'name', 'Required'],
      [{ name: 'A', number: '5511987650000' }, 'name', 'Too Short!'],
      [{ name: 'A'.repeat(51), number: '5511987650000' }, 'name', 'Too Long!'],
      [{ name: 'Ana' }, 'number', 'Required'],
      [{ name: 'Ana', number: '1234567' }, 'number', 'Too Short!'],
      [{ name: 'Ana', number: '1'.repeat(51) }, 'number', 'Too Long!'],
      [{ name: 'Ana', number: '5511987650000', email: 'not-an-email' }, 'email', 'Invalid email'],
      [{ name: 'Ana', number: '5511987650000', extraInfo: 'x' }, 'extraInfo', ''],
      [{ name: 'Ana', number: '5511987650000', extraInfo: [{ name: '', value: 'v' }] }, 'extraInfo', ''],
    ];
    for (const [body, field, text] of cases) {
      const res = await t.http.post('/contacts', { token: admin.token, body });
      expect({ status: res.status, error: res.body.error }).toEqual({ status: 400, error: 'ERR_VALIDATION' });
      const detail = res.body.details.find((d: { field: string }) => d.field.startsWith(field));
      expect(detail).toBeDefined();
      if (text) expect(detail.messages).toContain(text);
    }
    const notANumber = await t.http.post('/contacts', { token: admin.token, body: { name: 'Ana', number: 'abcdefghij' } });
    expect({ status: notANumber.status, error: notANumber.body.error }).toEqual({ status: 400, error: 'ERR_WAPP_INVALID_CONTACT' });
    expect((await t.http.get('/contacts', { token: admin.token })).body.count).toBe(0);
    // a field may be left out of an edit, but not sent as null
    const kept = await t.http.post('/contacts', { token: admin.token, body: { name: 'Nula', number: '5511987650001' } });
    for (const body of [{ name: null }, { number: null }]) {
      const res = await t.http.put(`/contacts/${kept.body.id}`, { token: admin.token, body });
      expect({ status: res.status, error: res.body.error }).toEqual({ status: 400, error: 'ERR_VALIDATION' });
    }
    expect((await t.http.get(`/contacts/${kept.body.id}`, { token: admin.token })).body).toMatchObject({
      name: 'Nula',
      number: '5511987650001',
    });
    for (const q of ['pageNumber=0', 'pageNumber=abc', 'date=24/11/2026', `searchParam=${'x'.repeat(101)}`]) {
      expect((await t.http.get(`/contacts?${q}`, { token: admin.token })).status).toBe(400);
    }
  });

  it("keeps companies apart: B reaches none of A's contacts by id, list, search or export", async () => {
    const a = await company();
    const b = await company();
    const mine = await t.http.post('/contacts', { token: a.admin.token, body: { name: 'Segredo', number: randomNumber() } });
    expect((await t.http.get(`/contacts/${mine.body.id}`, { token: b.admin.token })).status).toBe(404);
    expect((await t.http.put(`/contacts/${mine.body.id}`, { token: b.admin.token, body: { name: 'Invasor' } })).status).toBe(404);
    expect((await t.http.delete(`/contacts/${mine.body.id}`, { token: b.admin.token })).status).toBe(404);
    expect((await t.http.get('/contacts?searchParam=Segredo', { token: b.admin.token })).body.count).toBe(0);
    expect((await t.http.get('/contacts/list', { token: b.admin.token })).body).toEqual([]);
    expect((await t.http.get('/contacts/export', { token: b.admin.token })).body).not.toContain('Segredo');
    // the same number is a separate contact in B
    const theirs = await t.http.post('/contacts', { token: b.admin.token, body: { name: 'Outro', number: mine.body.number } });
    expect(theirs.body.alreadyExists).toBeUndefined();
    expect(theirs.body.id).not.toBe(mine.body.id);
  });
});

describe('contacts import and export (spec 02: POST /contacts/upload, CSV with a semicolon separator)', () => {
  async function xlsx(rows: unknown[][]): Promise<Blob> {
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('Contatos');
    for (const r of rows) sheet.addRow(r);
    return new Blob([await wb.xlsx.writeBuffer()]);
  }

  const upload = (token: string, blob: Blob, name: string) => {
    const form = new FormData();
    form.append('file', blob, name);
    return t.http.post('/contacts/upload', { token, form });
  };

  it('imports the good rows of a spreadsheet, updates known numbers, reports the bad rows by number', async () => {
    const { admin } = await company();
    const known = await t.http.post('/contacts', { token: admin.token, body: { name: 'Já Existe', number: '5511966660001' } });
    const sheet = await xlsx([
      ['Nome', 'Número', 'E-mail'],
      ['Igor', '+55 11 96666-0002', 'igor@example.com'],
      ['J', '5511966660003', ''],
      ['Karen', 'telefone?', ''],
      ['Já Existe Renomeado', '11 96666-0001', ''],
      ['Lia', '5511966660004', 'lia@'],
      ['Marta', '5511966660005', ''],
    ]);
    const res = await upload(admin.token, sheet, 'contatos.xlsx');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      created: 2,
      updated: 1,
      failed: [
        { row: 3, number: '5511966660003', error: 'Too Short!' },
        { row: 4, number: 'telefone?', error: 'ERR_WAPP_INVALID_CONTACT' },
        { row: 6, number: '5511966660004', error: 'Invalid email' },
      ],
    });
    const all = (await t.http.get('/contacts', { token: admin.token })).body;
    expect(all.contacts.map((x: { name: string; number: string }) => `${x.name}|${x.number}`)).toEqual([
      'Igor|5511966660002',
      'Já Existe Renomeado|5511966660001',
      'Marta|5511966660005',
    ]);
    expect(all.contacts[1].id).toBe(known.body.id);

    // export: every contact, semicolon-separated, a header first
    const csv = await t.http.get('/contacts/export', { token: admin.token });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const lines = String(csv.body)
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines[0]).toBe('name;number;email');
    expect(lines.slice(1).sort()).toEqual([
      'Igor;5511966660002;igor@example.com',
      'Já Existe Renomeado;5511966660001;',
      'Marta;5511966660005;',
    ]);
  });

  it('takes CSV text (comma or semicolon) and refuses files that are not spreadsheets whatever their name', async () => {
    const { admin, agent } = await company();
    const csv = await upload(admin.token, new Blob(['nome;numero;email\nNina;5511955550001;nina@example.com\n']), 'c.csv');
    expect(csv.body).toEqual({ created: 1, updated: 0, failed: [] });
    const png = Buffer.from(
      '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5f3c2e90000000049454e44ae426082',
      'hex',
    );
    for (const [blob, name] of [
      [new Blob([png]), 'contatos.xlsx'],
      [new Blob([Buffer.from([0, 1, 2, 3, 255, 254])]), 'contatos.csv'],
      [new Blob([Buffer.from('504b030414000000', 'hex')]), 'broken.xlsx'],
    ] as Array<[Blob, string]>) {
      const res = await upload(admin.token, blob, name);
      expect({ status: res.status, error: res.body.error }).toEqual({ status: 400, error: 'ERR_VALIDATION' });
    }
    expect((await t.http.post('/contacts/upload', { token: admin.token, form: new FormData() })).status).toBe(400);
    // too large
    const big = await upload(admin.token, new Blob([Buffer.alloc(6 * 1024 * 1024, 'a')]), 'big.csv');
    expect(big.status).toBe(413);
    // admins only
    expect((await upload(agent.token, new Blob(['nome;numero\nZé;5511955550002\n']), 'c.csv')).status).toBe(403);
    expect((await t.http.get('/contacts/export', { token: agent.token })).status).toBe(403);
    expect((await t.http.get('/contacts', { token: admin.token })).body.count).toBe(1);
  });
});

describe("POST /contacts/import: the phone's address book through the connection's session", () => {
  it('reads the address book page by page and imports it like a spreadsheet; admins only; no session, no import', async () => {
    const { c, admin, agent } = await company();
    const conn = await c.connection({ isDefault: true });
    const base = 5531900000000 + Math.floor(Math.random() * 900_000) * 100;
    const book = [
      ...Array.from({ length: 5 }, (_, i) => ({ number: String(base + i), name: `Agenda ${i}` })),
      { number: '123', name: 'Número ruim' },
      { number: String(base + 9), name: '' },
    ];
    // no process holds the session
    expect((await t.http.post('/contacts/import', { token: admin.token, body: {} })).body.error).toBe('ERR_WAPP_NOT_INITIALIZED');
    const asked: Array<{ page: number; pageSize: number }> = [];
    const stop = serve(t.bus, sessionCommandSubject(conn.id), (payload) => {
      if (pictureAsked(payload)) return NO_PICTURE;
      const cmd = payload as { action: string; page: number; pageSize: number };
      asked.push({ page: cmd.page, pageSize: cmd.pageSize });
      // pages of 4, whatever was asked
      return { ok: true, result: { contacts: book.slice((cmd.page - 1) * 4, cmd.page * 4), hasMore: book.length > cmd.page * 4 } };
    });
    try {
      expect((await t.http.post('/contacts/import', { token: agent.token, body: {} })).status).toBe(403);
      const report = await t.http.post('/contacts/import', { token: admin.token, body: {} });
      expect(report.status).toBe(200);
      expect(report.body).toEqual({ created: 6, updated: 0, failed: [{ row: 6, number: '123', error: 'ERR_WAPP_INVALID_CONTACT' }] });
      expect(asked.map((a) => a.page)).toEqual([1, 2]);
      const found = await t.http.get(`/contacts?searchParam=${String(base).slice(0, 10)}`, { token: admin.token });
      expect(found.body.contacts.map((x: { name: string }) => x.name).sort()).toEqual(
        ['Agenda 0', 'Agenda 1', 'Agenda 2', 'Agenda 3', 'Agenda 4', String(base + 9)].sort(),
      );
      // again: the same numbers are updated, not doubled; a name the company gave a contact stays
      const known = found.body.contacts.find((x: { name: string }) => x.name === 'Agenda 0');
      await t.http.put(`/contacts/${known.id}`, { token: admin.token, body: { name: 'Fornecedor de peças' } });
      expect((await t.http.post('/contacts/import', { token: admin.token, body: { whatsappId: conn.id } })).body).toMatchObject({
        created: 0,
        updated: 6,
      });
      expect((await t.http.get(`/contacts/${known.id}`, { token: admin.token })).body.name).toBe('Fornecedor de peças');
      expect((await t.http.post('/contacts/import', { token: admin.token, body: { whatsappId: 'x' } })).status).toBe(400);
    } finally {
      stop();
    }
  });
});
