import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import * as XLSX from '@e965/xlsx';
import { TokenRevocation, UserDirectory } from '@wa/auth';
import {
  ConnectionSubjects,
  sessionCommandSubject,
  type ContactListChangedEvent,
  type NumberCheckManyCommand,
  type WhatsappDto,
} from '@wa/contracts';
import { EventBus, serve } from '@wa/event-bus';
import { CompanySession, HttpClient, mediaForm, pngFile, startInProcess, waitFor, type RunningApp } from '@wa/testing';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { randomInt } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module.js';
import { CampaignsEnv } from '../../src/config/env.js';
import { campaignsDatabase } from '../../src/database/data-source.js';

let t: RunningApp & { env: CampaignsEnv };
let http: HttpClient;
let bus: EventBus;

beforeAll(async () => {
  t = await startInProcess({
    envClass: CampaignsEnv,
    module: (env) => AppModule.register(env),
    database: (env) => campaignsDatabase(env.DATABASE_URL),
    overrides: { NUMBER_CHECK_BATCH: '3', NUMBER_CHECK_GAP_MS: '300' },
  });
  http = new HttpClient(t.baseUrl);
  bus = t.app.get(EventBus);
});

afterAll(async () => {
  await t?.close();
});

/** A company of its own with a signed-in admin, and the list events it hears. */
async function company() {
  const session = new CompanySession({ directory: t.app.get(UserDirectory), revocation: t.app.get(TokenRevocation) });
  const user = await session.user({ profile: 'admin' });
  const agent = await session.user({ profile: 'user' });
  const events: ContactListChangedEvent[] = [];
  const sub = bus.connection.subscribe(`campaign.list.${session.companyId}.>`, {
    callback: (err, msg) => {
      if (!err) events.push(msg.json<ContactListChangedEvent>());
    },
  });
  await bus.connection.flush();
  return { companyId: session.companyId, token: user.token, agentToken: agent.token, events, stop: () => sub.unsubscribe() };
}

const createList = async (token: string, name: string): Promise<{ id: number; name: string; contactsCount: number }> => {
  const res = await http.post('/contact-lists', { token, body: { name } });
  expect(res.status).toBe(201);
  return res.body;
};

const fieldMessages = (body: { details?: Array<{ field: string; messages: string[] }> }, field: string) =>
  body.details?.find((d) => d.field === field)?.messages ?? [];

async function xlsxOf(rows: unknown[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Planilha');
  for (const r of rows) sheet.addRow(r);
  return Buffer.from(await book.xlsx.writeBuffer());
}

const upload = (token: string, listId: number, data: Buffer, name: string) =>
  http.post(`/contact-lists/${listId}/upload`, { token, form: mediaForm([{ field: 'file', name, data }]) });

const lastImport = (events: ContactListChangedEvent[], listId: number) =>
  events.filter((e) => e.action === 'import' && e.contactListId === listId).at(-1) as Extract<
    ContactListChangedEvent,
    { action: 'import' }
  >;

async function importDone(events: ContactListChangedEvent[], listId: number) {
  const done = await waitFor(async () => {
    const last = lastImport(events, listId);
    return last?.progress.done ? last.progress : null;
  });
  return done;
}

describe('contact lists and items (spec 02 §2, §3, §5, §7)', () => {
  it('creates, pages, searches, edits and deletes lists with the spec texts; items with their texts; live events', async () => {
    const c = await company();
    expect((await http.post('/contact-lists', { token: c.token, body: { name: 'A' } })).body).toMatchObject({ error: 'ERR_VALIDATION' });
    expect(fieldMessages((await http.post('/contact-lists', { token: c.token, body: { name: 'A' } })).body, 'name')).toContain(
      'Too Short!',
    );
    expect(fieldMessages((await http.post('/contact-lists', { token: c.token, body: { name: 'x'.repeat(51) } })).body, 'name')).toContain(
      'Too Long!',
    );
    expect(fieldMessages((await http.post('/contact-lists', { token: c.token, body: {} })).body, 'name')).toContain('Required');

    const clients = await createList(c.token, 'Clientes VIP');
    expect(clients).toMatchObject({ name: 'Clientes VIP', contactsCount: 0, companyId: c.companyId });
    for (let i = 0; i < 21; i++) await createList(c.token, `Lista ${String(i).padStart(2, '0')}`);
    const first = await http.get('/contact-lists?pageNumber=1', { token: c.token });
    expect(first.status).toBe(200);
    expect(first.body.records).toHaveLength(20);
    expect(first.body).toMatchObject({ hasMore: true, count: 22 });
    expect((await http.get('/contact-lists?pageNumber=2', { token: c.token })).body).toMatchObject({ hasMore: false, count: 22 });
    const found = await http.get(`/contact-lists?searchParam=vip&companyId=${c.companyId}`, { token: c.token });
    expect(found.body.records.map((r: { id: number }) => r.id)).toEqual([clients.id]);
    expect((await http.get(`/contact-lists/list?companyId=${c.companyId}`, { token: c.token })).body).toHaveLength(22);

    // items: the texts of §5
    const bad = await http.post('/contact-list-items', {
      token: c.token,
      body: { name: 'J', number: '123', email: 'nope', contactListId: clients.id },
    });
    expect(bad.status).toBe(400);
    expect(fieldMessages(bad.body, 'name')).toContain('Too Short!');
    expect(fieldMessages(bad.body, 'number')).toContain('Too Short!');
    expect(fieldMessages(bad.body, 'email')).toContain('Invalid email');
    const long = await http.post('/contact-list-items', {
      token: c.token,
      body: { name: 'João', number: '5'.repeat(51), contactListId: clients.id },
    });
    expect(fieldMessages(long.body, 'number')).toContain('Too Long!');

    const item = await http.post('/contact-list-items', {
      token: c.token,
      body: { name: 'Maria', number: '+55 (11) 98765-4321', email: 'maria@example.com', contactListId: clients.id },
    });
    expect(item.status).toBe(201);
    expect(item.body).toMatchObject({ name: 'Maria', number: '5511987654321', email: 'maria@example.com', isWhatsappValid: null });
    // the 9th-digit variant is the same number; so is another format
    const twin = await http.post('/contact-list-items', {
      token: c.token,
      body: { name: 'Maria 2', number: '551187654321', contactListId: clients.id },
    });
    expect({ status: twin.status, error: twin.body.error }).toEqual({ status: 409, error: 'ERR_DUPLICATED_LIST_ITEM' });
    expect(
      (
        await http.post('/contact-list-items', {
          token: c.token,
          body: { name: 'Maria 3', number: '11987654321', contactListId: clients.id },
        })
      ).status,
    ).toBe(409);
    const other = await http.post('/contact-list-items', {
      token: c.token,
      body: { name: 'Pedro', number: '5521998765432', contactListId: clients.id },
    });
    expect(other.status).toBe(201);
    // renumbering onto a number the list holds is refused too
    expect((await http.put(`/contact-list-items/${other.body.id}`, { token: c.token, body: { number: '551187654321' } })).status).toBe(409);
    const edited = await http.put(`/contact-list-items/${other.body.id}`, { token: c.token, body: { name: 'Pedro Alves', email: '' } });
    expect(edited.body).toMatchObject({ name: 'Pedro Alves', number: '5521998765432', email: '' });

    const page = await http.get(`/contact-list-items?contactListId=${clients.id}&pageNumber=1`, { token: c.token });
    expect(page.body).toMatchObject({ hasMore: false });
    expect(page.body.contacts.map((i: { name: string }) => i.name)).toEqual(['Maria', 'Pedro Alves']);
    expect(
      (await http.get(`/contact-list-items?contactListId=${clients.id}&searchParam=pedro`, { token: c.token })).body.contacts,
    ).toHaveLength(1);
    expect(
      (await http.get(`/contact-list-items?contactListId=${clients.id}&searchParam=98765`, { token: c.token })).body.contacts,
    ).toHaveLength(2);
    expect((await http.get(`/contact-lists/${clients.id}`, { token: c.token })).body.contactsCount).toBe(2);

    expect((await http.delete(`/contact-list-items/${other.body.id}`, { token: c.token })).status).toBe(200);
    expect((await http.get(`/contact-list-items/${other.body.id}`, { token: c.token })).body.error).toBe('ERR_NO_CONTACT_LIST_ITEM_FOUND');
    const renamed = await http.put(`/contact-lists/${clients.id}`, { token: c.token, body: { name: 'Clientes' } });
    expect(renamed.body).toMatchObject({ name: 'Clientes', contactsCount: 1 });
    expect((await http.delete(`/contact-lists/${clients.id}`, { token: c.token })).status).toBe(200);
    expect((await http.get(`/contact-lists/${clients.id}`, { token: c.token })).status).toBe(404);
    expect((await http.get(`/contact-list-items/${item.body.id}`, { token: c.token })).status).toBe(404);

    await waitFor(async () => c.events.some((e) => e.action === 'delete' && e.contactListId === clients.id));
    const actions = c.events.filter((e) => e.contactListId === clients.id).map((e) => e.action);
    expect(actions).toEqual(['create', 'item', 'item', 'item', 'item-delete', 'update', 'delete']);
    c.stop();
  });

  it("refuses another company's lists and items (404), and adding to another company's list", async () => {
    const a = await company();
    const b = await company();
    const list = await createList(a.token, 'Só de A');
    const item = await http.post('/contact-list-items', {
      token: a.token,
      body: { name: 'Ana', number: '5511912345678', contactListId: list.id },
    });
    for (const res of [
      await http.get(`/contact-lists/${list.id}`, { token: b.token }),
      await http.put(`/contact-lists/${list.id}`, { token: b.token, body: { name: 'Tomada' } }),
      await http.delete(`/contact-lists/${list.id}`, { token: b.token }),
      await http.get(`/contact-list-items?contactListId=${list.id}`, { token: b.token }),
      await http.post('/contact-list-items', { token: b.token, body: { name: 'Bia', number: '5511911112222', contactListId: list.id } }),
      await http.get(`/contact-list-items/${item.body.id}`, { token: b.token }),
      await http.put(`/contact-list-items/${item.body.id}`, { token: b.token, body: { name: 'Mudado' } }),
      await http.delete(`/contact-list-items/${item.body.id}`, { token: b.token }),
      await upload(b.token, list.id, Buffer.from('nome,numero\nBia,5511911112222\n'), 'l.csv'),
    ])
      expect(res.status).toBe(404);
    expect((await http.get('/contact-lists/list', { token: b.token })).body).toEqual([]);
    const still = await http.get(`/contact-list-items?contactListId=${list.id}`, { token: a.token });
    expect(still.body.contacts.map((i: { name: string }) => i.name)).toEqual(['Ana']);
    expect((await http.get('/contact-lists', { token: '' })).status).toBe(401);
    // the company's users read its lists; only its admins change them
    expect((await http.get(`/contact-list-items?contactListId=${list.id}`, { token: a.agentToken })).body.contacts).toHaveLength(1);
    expect((await http.post('/contact-lists', { token: a.agentToken, body: { name: 'Do agente' } })).status).toBe(403);
    expect(
      (
        await http.post('/contact-list-items', {
          token: a.agentToken,
          body: { name: 'Bia', number: '5511911112222', contactListId: list.id },
        })
      ).status,
    ).toBe(403);
    expect((await http.delete(`/contact-lists/${list.id}`, { token: a.agentToken })).status).toBe(403);
    a.stop();
    b.stop();
  });
});

describe('importing a spreadsheet (issue 40 item 2)', () => {
  it('imports .xlsx, .csv and .xls: answers at once, counts added, duplicates and invalid rows, live', async () => {
    const c = await company();
    const list = await createList(c.token, 'Importada');
    await http.post('/contact-list-items', {
      token: c.token,
      body: { name: 'Já estava', number: '5511987650001', contactListId: list.id },
    });

    const xlsx = await xlsxOf([
      ['Nome', 'Número', 'E-mail'],
      ['Ana', '5511987650002', 'ana@example.com'],
      ['Bruno', '(11) 98765-0003', ''],
      ['Dup do arquivo', '5511987650002', ''],
      ['Já na lista', '551187650001', ''], // the 9th-digit variant of the item above
      ['Curto', '1234', ''],
      ['Email ruim', '5511987650004', 'not-an-email'],
      ['', '5511987650005', ''],
    ]);
    const res = await upload(c.token, list.id, xlsx, 'contatos.xlsx');
    expect(res.status).toBe(202);
    // an .xlsx is answered before its rows are read: how many there are comes with the progress
    expect(res.body).toEqual({ contactListId: list.id });
    expect(await importDone(c.events, list.id)).toMatchObject({ processed: 7, total: 7, added: 3, duplicates: 2, invalid: 2, done: true });

    // an .xlsx without a number column: accepted, then ended live with the reason, nothing stored
    const noNumbers = await createList(c.token, 'Sem números');
    expect((await upload(c.token, noNumbers.id, await xlsxOf([['nome'], ['Ana']]), 'sem.xlsx')).status).toBe(202);
    expect(await importDone(c.events, noNumbers.id)).toMatchObject({ added: 0, done: true, error: expect.stringContaining('numero') });
    expect((await http.get(`/contact-lists/${noNumbers.id}`, { token: c.token })).body.contactsCount).toBe(0);
    expect(c.events.some((e) => e.action === 'items' && e.contactListId === list.id)).toBe(true);
    const items = await http.get(`/contact-list-items?contactListId=${list.id}`, { token: c.token });
    expect(items.body.contacts.map((i: { name: string; number: string }) => `${i.name}:${i.number}`).sort()).toEqual(
      ['5511987650005:5511987650005', 'Ana:5511987650002', 'Bruno:5511987650003', 'Já estava:5511987650001'].sort(),
    );

    // CSV with semicolons, the headers in upper case without accents, and a BOM
    const csvList = await createList(c.token, 'Do CSV');
    const csv = Buffer.from('\uFEFFNUMERO;NOME;EMAIL\n5521988887777;Carla;carla@example.com\n5521988886666;Davi;\n', 'utf8');
    expect((await upload(c.token, csvList.id, csv, 'lista.csv')).body).toEqual({ contactListId: csvList.id, total: 2 });
    expect(await importDone(c.events, csvList.id)).toMatchObject({ added: 2, duplicates: 0, invalid: 0 });

    // a legacy .xls
    const xlsList = await createList(c.token, 'Do XLS');
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(
      book,
      XLSX.utils.aoa_to_sheet([
        ['name', 'number', 'email'],
        ['Eva', '5531977776666', ''],
        ['Fábio', 5531977775555, 'fabio@example.com'],
      ]),
      'Sheet1',
    );
    const xls = XLSX.write(book, { type: 'buffer', bookType: 'biff8' }) as Buffer;
    expect((await upload(c.token, xlsList.id, xls, 'velha.xls')).status).toBe(202);
    expect(await importDone(c.events, xlsList.id)).toMatchObject({ added: 2, invalid: 0 });
    expect((await http.get(`/contact-lists/${xlsList.id}`, { token: c.token })).body.contactsCount).toBe(2);
    c.stop();
  });

  it('refuses a file that is not a spreadsheet (400), storing nothing', async () => {
    const c = await company();
    const list = await createList(c.token, 'Nada');
    for (const [name, data] of [
      ['foto.png', pngFile()],
      ['notas.txt', Buffer.from('Lembrar de ligar para a Maria amanhã.\nE para o Pedro.\n')],
      ['vazio.csv', Buffer.alloc(0)],
    ] as const) {
      const res = await upload(c.token, list.id, data, name);
      expect({ name, status: res.status, error: res.body.error }).toEqual({ name, status: 400, error: 'ERR_VALIDATION' });
    }
    expect((await http.post(`/contact-lists/${list.id}/upload`, { token: c.token, form: new FormData() })).status).toBe(400);
    // a zip bomb: a real .xlsx whose shared strings unpack to 80 MB (a few hundred KB packed), refused before inflating
    const bomb = await JSZip.loadAsync(
      await xlsxOf([
        ['nome', 'numero'],
        ['Ana', '5511987650002'],
      ]),
    );
    bomb.file('xl/sharedStrings.xml', `<sst><si><t>nome</t></si>${'<si><t>bomba</t></si>'.repeat(4_000_000)}</sst>`);
    const packed = await bomb.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 9 } });
    const refused = await upload(c.token, list.id, packed, 'bomba.xlsx');
    expect({ status: refused.status, messages: fieldMessages(refused.body, 'file') }).toEqual({
      status: 400,
      messages: ['too large when unpacked'],
    });
    expect((await http.get(`/contact-lists/${list.id}`, { token: c.token })).body.contactsCount).toBe(0);
    expect(c.events.filter((e) => e.action === 'import')).toEqual([]);
    c.stop();
  });

  it('serves a real .xlsx example with the headers nome, numero, email', async () => {
    const c = await company();
    const res = await fetch(`${t.baseUrl}/contact-lists/example.xlsx`, { headers: { authorization: `Bearer ${c.token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await res.arrayBuffer());
    const rows = (book.worksheets[0].getSheetValues() as unknown[][]).filter(Boolean).map((r) => r.slice(1));
    expect(rows[0]).toEqual(['nome', 'numero', 'email']);
    expect(rows).toHaveLength(3);
    // and it imports as is
    const list = await createList(c.token, 'Exemplo');
    expect(
      (
        await upload(
          c.token,
          list.id,
          Buffer.from(
            await (
              await fetch(`${t.baseUrl}/contact-lists/example.xlsx`, { headers: { authorization: `Bearer ${c.token}` } })
            ).arrayBuffer(),
          ),
          'example.xlsx',
        )
      ).status,
    ).toBe(202);
    expect(await importDone(c.events, list.id)).toMatchObject({ added: 2 });
    c.stop();
  });
});

describe('the background check on WhatsApp (issue 40 item 2)', () => {
  it("checks the list's numbers through the company's connected connection, in batches, paced, and sets isWhatsappValid", async () => {
    const c = await company();
    const list = await createList(c.token, 'Checar');
    const numbers = ['5511987655551', '5511987655552', '5511987655553', '5511987655554', '5511987655555'];
    for (const [i, number] of numbers.entries())
      await http.post('/contact-list-items', { token: c.token, body: { name: `Pessoa ${i}`, number, contactListId: list.id } });

    // no connection yet: the items wait
    await new Promise((r) => setTimeout(r, 700));
    const waiting = await http.get(`/contact-list-items?contactListId=${list.id}`, { token: c.token });
    expect(waiting.body.contacts.every((i: { isWhatsappValid: boolean | null }) => i.isWhatsappValid === null)).toBe(true);

    // a session holder that answers checkMany as the sandbox does: numbers ending in an odd digit exist
    const connectionId = randomInt(1_000_000, 2_000_000_000);
    const asked: Array<{ at: number; numbers: string[] }> = [];
    const stopServing = serve(bus, sessionCommandSubject(connectionId), (payload) => {
      const cmd = payload as NumberCheckManyCommand;
      asked.push({ at: Date.now(), numbers: cmd.numbers });
      return { ok: true, result: { results: cmd.numbers.map((n) => ({ number: n, exists: Number(n.at(-1)) % 2 === 1, jid: null })) } };
    });
    try {
      await announceConnection(c.companyId, connectionId);
      const checked = await waitFor(
        async () => {
          const res = await http.get(`/contact-list-items?contactListId=${list.id}`, { token: c.token });
          return res.body.contacts.every((i: { isWhatsappValid: boolean | null }) => i.isWhatsappValid !== null) ? res.body.contacts : null;
        },
        { timeoutMs: 15_000 },
      );
      expect(Object.fromEntries(checked.map((i: { number: string; isWhatsappValid: boolean }) => [i.number, i.isWhatsappValid]))).toEqual({
        '5511987655551': true,
        '5511987655552': false,
        '5511987655553': true,
        '5511987655554': false,
        '5511987655555': true,
      });
      // NUMBER_CHECK_BATCH (3) numbers a query, NUMBER_CHECK_GAP_MS (300) apart, none asked twice
      expect(asked.map((a) => a.numbers.length)).toEqual([3, 2]);
      expect(asked[1].at - asked[0].at).toBeGreaterThanOrEqual(280);
      expect(new Set(asked.flatMap((a) => a.numbers)).size).toBe(5);
      await waitFor(async () => c.events.filter((e) => e.action === 'item' && e.item.isWhatsappValid !== null).length === 5);

      // an item added by hand is checked within seconds
      const added = await http.post('/contact-list-items', {
        token: c.token,
        body: { name: 'Nova', number: '5511987655557', contactListId: list.id },
      });
      const fresh = await waitFor(async () => {
        const res = await http.get(`/contact-list-items/${added.body.id}`, { token: c.token });
        return res.body.isWhatsappValid !== null ? res.body : null;
      });
      expect(fresh.isWhatsappValid).toBe(true);
    } finally {
      stopServing();
      c.stop();
    }
  });

  it('two replicas never ask the same number twice', async () => {
    const second = await startInProcess({
      envClass: CampaignsEnv,
      module: (env) => AppModule.register(env),
      overrides: { NUMBER_CHECK_BATCH: '3', NUMBER_CHECK_GAP_MS: '100' },
    });
    const c = await company();
    const connectionId = randomInt(1_000_000, 2_000_000_000);
    const asked: string[] = [];
    const stopServing = serve(bus, sessionCommandSubject(connectionId), async (payload) => {
      const cmd = payload as NumberCheckManyCommand;
      asked.push(...cmd.numbers);
      // a slow phone: the other replica's pass comes while this query is out
      await new Promise((r) => setTimeout(r, 250));
      return { ok: true, result: { results: cmd.numbers.map((n) => ({ number: n, exists: true, jid: null })) } };
    });
    try {
      const list = await createList(c.token, 'Duas réplicas');
      const form = mediaForm([
        {
          field: 'file',
          name: 'l.csv',
          data: Buffer.from(
            ['nome,numero', ...Array.from({ length: 12 }, (_, i) => `P${i},55119876544${String(i).padStart(2, '0')}`)].join('\n'),
          ),
        },
      ]);
      expect((await http.post(`/contact-lists/${list.id}/upload`, { token: c.token, form })).status).toBe(202);
      await importDone(c.events, list.id);
      await announceConnection(c.companyId, connectionId);
      await waitFor(
        async () => {
          const res = await http.get(`/contact-list-items?contactListId=${list.id}`, { token: c.token });
          return res.body.contacts.every((i: { isWhatsappValid: boolean | null }) => i.isWhatsappValid === true);
        },
        { timeoutMs: 20_000 },
      );
      expect(asked).toHaveLength(12);
      expect(new Set(asked).size).toBe(12);
    } finally {
      stopServing();
      c.stop();
      await second.close();
    }
  });
});

/** A connected connection of the company, as whatsapp-sessions announces it; waits until campaigns keeps it. */
async function announceConnection(companyId: number, id: number): Promise<void> {
  const now = new Date().toISOString();
  const connection = {
    id,
    companyId,
    name: `Conn ${id}`,
    status: 'CONNECTED',
    isDefault: true,
    updatedAt: now,
    createdAt: now,
  } as WhatsappDto;
  await bus.publish(
    ConnectionSubjects.session(companyId, id),
    { companyId, connectionId: id, status: 'CONNECTED', qrcode: '', session: connection },
    { msgId: `test-conn:${id}:${now}` },
  );
  const db = t.app.get(DataSource);
  await waitFor(async () => {
    const rows: unknown[] = await db.query(`SELECT 1 FROM campaigns.connections WHERE id = $1 AND status = 'CONNECTED'`, [id]);
    return rows.length > 0;
  });
}
