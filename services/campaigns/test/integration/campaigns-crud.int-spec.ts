import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { CampaignChangedEvent } from '@wa/contracts';
import { EventBus } from '@wa/event-bus';
import { CompanySession, HttpClient, mediaForm, pngFile, startInProcess, waitFor, type RunningApp } from '@wa/testing';
import { randomInt } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module.js';
import { CampaignsEnv } from '../../src/config/env.js';
import { campaignsDatabase } from '../../src/database/data-source.js';

let t: RunningApp & { env: CampaignsEnv };
let http: HttpClient;
let db: DataSource;
let bus: EventBus;

beforeAll(async () => {
  t = await startInProcess({
    envClass: CampaignsEnv,
    module: (env) => AppModule.register(env),
    database: (env) => campaignsDatabase(env.DATABASE_URL),
  });
  http = new HttpClient(t.baseUrl);
  db = t.app.get(getDataSourceToken()) as DataSource;
  bus = t.app.get(EventBus);
});

afterAll(async () => {
  await t?.close();
});

const HOUR = 3600_000;
const inHours = (h: number) => new Date(Date.now() + h * HOUR).toISOString();
const fieldMessages = (body: { details?: Array<{ field: string; messages: string[] }> }, field: string) =>
  body.details?.find((d) => d.field === field)?.messages ?? [];

/** A company of its own: an admin, an agent, a connection campaigns knows (as whatsapp-sessions announces it) and a contact list. */
async function company() {
  const session = new CompanySession();
  const admin = await session.user({ profile: 'admin' });
  const agent = await session.user({ profile: 'user' });
  const connectionId = randomInt(1, 2_000_000_000);
  // campaigns' copy of the company's connection, as the connections consumer keeps it
  await db.query(
    `INSERT INTO campaigns.connections (id, "companyId", name, status, "isDefault", "createdAt", "updatedAt") VALUES ($1, $2, $3, 'CONNECTED', true, now(), now())`,
    [connectionId, session.companyId, `Conn ${connectionId}`],
  );
  const [list] = (await db.query(`INSERT INTO campaigns.contact_lists ("companyId", name) VALUES ($1, 'Clientes') RETURNING id`, [
    session.companyId,
  ])) as Array<{ id: number }>;
  return { companyId: session.companyId, admin: admin.token, agent: agent.token, connectionId, listId: list.id };
}

type Company = Awaited<ReturnType<typeof company>>;

const complete = (c: Company, extra: Record<string, unknown> = {}) => ({
  name: 'Black Friday',
  message1: 'Olá {nome}!',
  whatsappId: c.connectionId,
  contactListId: c.listId,
  tagListId: 'Nenhuma',
  fileListId: null,
  ...extra,
});

async function create(c: Company, body: Record<string, unknown>) {
  const res = await http.post('/campaigns', { token: c.admin, body });
  if (res.status !== 201) throw new Error(`campaign not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const rowOf = async (id: number) =>
  ((await db.query(`SELECT status, version, name, message1, "scheduledAt" FROM campaigns.campaigns WHERE id = $1`, [id])) as any[])[0];
const setStatus = (id: number, status: string, scheduledAt: string | null = null) =>
  db.query(`UPDATE campaigns.campaigns SET status = $2, "scheduledAt" = $3 WHERE id = $1`, [id, status, scheduledAt]);

/** The campaign.changed events of a company (as realtime-gateway hears them). */
function listen(companyId: number) {
  const events: CampaignChangedEvent[] = [];
  const sub = bus.connection.subscribe(`campaign.changed.${companyId}.>`, {
    callback: (_err, m) => events.push(JSON.parse(new TextDecoder().decode(m.data)) as CampaignChangedEvent),
  });
  return { events, stop: () => sub.unsubscribe() };
}

describe('campaigns (spec 02 §7 "Campaigns")', () => {
  it('creates, reads, pages, searches, edits and deletes, announcing each change; agents read but do not write', async () => {
    const c = await company();
    const live = listen(c.companyId);
    const draft = await create(c, { name: '  Natal  ', message1: 'Feliz Natal, {nome}' });
    expect(draft).toMatchObject({
      name: 'Natal',
      status: 'INATIVA',
      scheduledAt: null,
      tagListId: 'Nenhuma',
      confirmation: false,
      whatsappId: null,
      contactListId: null,
      companyId: c.companyId,
      message1: 'Feliz Natal, {nome}',
      message2: '',
      mediaPath: null,
    });
    const full = await create(c, complete(c, { name: 'Promo 2026' }));
    expect(full).toMatchObject({
      status: 'INATIVA',
      whatsapp: { id: c.connectionId, name: `Conn ${c.connectionId}` },
      contactList: { id: c.listId, name: 'Clientes' },
    });
    expect((await http.get(`/campaigns/${full.id}`, { token: c.agent })).body).toEqual(full);

    for (let i = 0; i < 20; i++) await create(c, { name: `Lote ${String(i).padStart(2, '0')}` });
    const first = await http.get('/campaigns?pageNumber=1', { token: c.agent });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ hasMore: true, count: 22 });
    expect(first.body.records).toHaveLength(20);
    expect(first.body.records[0].name).toBe('Lote 19');
    const second = await http.get('/campaigns?pageNumber=2', { token: c.agent });
    expect(second.body).toMatchObject({ hasMore: false, count: 22 });
    expect(second.body.records.map((r: { name: string }) => r.name)).toEqual(['Promo 2026', 'Natal']);
    const found = await http.get('/campaigns?searchParam=PROMO', { token: c.agent });
    expect(found.body).toMatchObject({ count: 1, hasMore: false });
    expect(found.body.records[0].id).toBe(full.id);
    expect((await http.get('/campaigns?searchParam=%25', { token: c.agent })).body.count).toBe(0);

    const edited = await http.put(`/campaigns/${draft.id}`, { token: c.admin, body: { name: 'Natal 2026', message2: 'Boas festas' } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ name: 'Natal 2026', message1: 'Feliz Natal, {nome}', message2: 'Boas festas', status: 'INATIVA' });

    // an agent reads, but writes nothing
    expect((await http.post('/campaigns', { token: c.agent, body: { name: 'Minha' } })).status).toBe(403);
    expect((await http.put(`/campaigns/${draft.id}`, { token: c.agent, body: { name: 'Outra' } })).status).toBe(403);
    expect((await http.delete(`/campaigns/${draft.id}`, { token: c.agent })).status).toBe(403);

    const removed = await http.delete(`/campaigns/${draft.id}`, { token: c.admin });
    expect(removed.status).toBe(200);
    const gone = await http.get(`/campaigns/${draft.id}`, { token: c.admin });
    expect({ status: gone.status, error: gone.body.error }).toEqual({ status: 404, error: 'ERR_NO_CAMPAIGN_FOUND' });

    await waitFor(() => live.events.some((e) => e.action === 'delete' && e.campaignId === draft.id));
    live.stop();
    const ofDraft = live.events.filter((e) => (e.action === 'delete' ? e.campaignId : e.record.id) === draft.id);
    expect(ofDraft.map((e) => e.action)).toEqual(['create', 'update', 'delete']);
    expect(ofDraft[1]).toMatchObject({ action: 'update', record: { name: 'Natal 2026' } });
  });

  it("answers the form texts (Required, Too Short!, Too Long!) and refuses what is not the company's, storing nothing", async () => {
    const c = await company();
    const other = await company();
    const post = (body: Record<string, unknown>) => http.post('/campaigns', { token: c.admin, body });

    const missing = await post({ message1: 'x' });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('ERR_VALIDATION');
    expect(fieldMessages(missing.body, 'name')).toContain('Required');
    expect(fieldMessages((await post({ name: 'A' })).body, 'name')).toContain('Too Short!');
    expect(fieldMessages((await post({ name: 'x'.repeat(51) })).body, 'name')).toContain('Too Long!');
    expect((await post({ name: 'Ok', tagListId: 'abc' })).status).toBe(400);
    expect((await post({ name: 'Ok', scheduledAt: 'amanhã' })).status).toBe(400);
    expect((await post({ name: 'Ok', whatsappId: 'um' })).status).toBe(400);

    const foreignConnection = await post({ name: 'Ok', whatsappId: other.connectionId });
    expect({ status: foreignConnection.status, error: foreignConnection.body.error }).toEqual({ status: 404, error: 'ERR_NO_WAPP_FOUND' });
    const foreignList = await post({ name: 'Ok', contactListId: other.listId });
    expect({ status: foreignList.status, error: foreignList.body.error }).toEqual({ status: 404, error: 'ERR_NO_CONTACT_LIST_FOUND' });

    // the original client's empty selects ('') are no value; a tag's id may come as a number
    const lenient = await post({ name: 'Ok', whatsappId: '', contactListId: '', fileListId: '', scheduledAt: '', tagListId: 12 });
    expect(lenient.status).toBe(201);
    expect(lenient.body).toMatchObject({ whatsappId: null, contactListId: null, fileListId: null, scheduledAt: null, tagListId: '12' });
    expect((await http.get('/campaigns', { token: c.admin })).body.count).toBe(1);
  });

  it('is INATIVA without a date and PROGRAMADA with one (then complete); a PUT moves it between them, raising its version', async () => {
    const c = await company();
    const scheduled = await create(c, complete(c, { scheduledAt: inHours(3) }));
    expect(scheduled.status).toBe('PROGRAMADA');
    expect(new Date(scheduled.scheduledAt).getTime()).toBeGreaterThan(Date.now() + 2 * HOUR);

    // a date needs an audience, a connection and a message (a confirmation text when confirmation is on)
    const incomplete = await http.post('/campaigns', { token: c.admin, body: { name: 'Sem nada', scheduledAt: inHours(3) } });
    expect(incomplete.status).toBe(400);
    expect(incomplete.body.details.map((d: { field: string }) => d.field).sort()).toEqual(['contactListId', 'message1', 'whatsappId']);
    const noConfirmation = await http.post('/campaigns', {
      token: c.admin,
      body: complete(c, { scheduledAt: inHours(3), confirmation: true }),
    });
    expect(fieldMessages(noConfirmation.body, 'confirmationMessage1')).toEqual(['Required']);
    // a tag is an audience too
    const byTag = await create(c, complete(c, { contactListId: null, tagListId: '7', scheduledAt: inHours(3) }));
    expect(byTag.status).toBe('PROGRAMADA');
    expect((await http.get('/campaigns', { token: c.admin })).body.count).toBe(2);

    // a date in the past means now
    const now = await create(c, complete(c, { scheduledAt: new Date(Date.now() - 86_400_000).toISOString() }));
    expect(now.status).toBe('PROGRAMADA');
    expect(Math.abs(new Date(now.scheduledAt).getTime() - Date.now())).toBeLessThan(60_000);

    const draft = await create(c, complete(c));
    const v0 = (await rowOf(draft.id)).version;
    const dated = await http.put(`/campaigns/${draft.id}`, { token: c.admin, body: { scheduledAt: inHours(5) } });
    expect(dated.body.status).toBe('PROGRAMADA');
    expect((await rowOf(draft.id)).version).toBe(v0 + 1);
    // the same form sent again changes neither the state nor the version
    await http.put(`/campaigns/${draft.id}`, { token: c.admin, body: { ...complete(c), scheduledAt: dated.body.scheduledAt } });
    expect((await rowOf(draft.id)).version).toBe(v0 + 1);
    const moved = await http.put(`/campaigns/${draft.id}`, { token: c.admin, body: { scheduledAt: inHours(6) } });
    expect(moved.body.status).toBe('PROGRAMADA');
    expect((await rowOf(draft.id)).version).toBe(v0 + 2);
    const undated = await http.put(`/campaigns/${draft.id}`, { token: c.admin, body: { scheduledAt: null } });
    expect(undated.body).toMatchObject({ status: 'INATIVA', scheduledAt: null });
    expect((await rowOf(draft.id)).version).toBe(v0 + 3);
    // scheduled, it must stay complete
    await http.put(`/campaigns/${draft.id}`, { token: c.admin, body: { scheduledAt: inHours(4) } });
    const emptied = await http.put(`/campaigns/${draft.id}`, { token: c.admin, body: { message1: '  ' } });
    expect(fieldMessages(emptied.body, 'message1')).toEqual(['Required']);
    expect((await rowOf(draft.id)).message1).toBe('Olá {nome}!');
  });

  it('refuses an edit when it is not editable (running, finished, or starting within the hour) and changes nothing', async () => {
    const c = await company();
    const soon = await create(c, complete(c, { scheduledAt: new Date(Date.now() + 30 * 60_000).toISOString() }));
    const tried = await http.put(`/campaigns/${soon.id}`, { token: c.admin, body: { name: 'Mudou', message1: 'Outro' } });
    expect({ status: tried.status, error: tried.body.error }).toEqual({ status: 409, error: 'ERR_CAMPAIGN_NOT_EDITABLE' });
    expect(await rowOf(soon.id)).toMatchObject({ name: 'Black Friday', message1: 'Olá {nome}!', status: 'PROGRAMADA' });
    const media = await http.post(`/campaigns/${soon.id}/media-upload`, {
      token: c.admin,
      form: mediaForm([{ field: 'file', name: 'foto.png', data: pngFile(), type: 'image/png' }]),
    });
    expect(media.status).toBe(409);

    const running = await create(c, complete(c, { name: 'Rodando' }));
    await setStatus(running.id, 'EM_ANDAMENTO', new Date(Date.now() - 60_000).toISOString());
    // a row still to go, so no dispatcher finishes it under the test
    await db.query(
      `INSERT INTO campaigns.shippings ("companyId", "campaignId", "connectionId", number, status) VALUES ($1, $2, $3, '5511999990000', 'pending')`,
      [c.companyId, running.id, c.connectionId],
    );
    const put = await http.put(`/campaigns/${running.id}`, { token: c.admin, body: { message1: 'Outro' } });
    expect({ status: put.status, error: put.body.error }).toEqual({ status: 409, error: 'ERR_CAMPAIGN_NOT_EDITABLE' });
    // a running campaign is stopped first (POST /campaigns/{id}/cancel), not deleted under the sender
    const del = await http.delete(`/campaigns/${running.id}`, { token: c.admin });
    expect({ status: del.status, error: del.body.error }).toEqual({ status: 409, error: 'ERR_CAMPAIGN_NOT_EDITABLE' });
    expect((await http.get(`/campaigns/${running.id}`, { token: c.admin })).status).toBe(200);

    const finished = await create(c, complete(c, { name: 'Feita' }));
    await setStatus(finished.id, 'FINALIZADA');
    expect((await http.put(`/campaigns/${finished.id}`, { token: c.admin, body: { name: 'Refeita' } })).status).toBe(409);
    expect((await rowOf(finished.id)).name).toBe('Feita');
    // finished (or scheduled within the hour) it may go
    expect((await http.delete(`/campaigns/${finished.id}`, { token: c.admin })).status).toBe(200);
    expect((await http.delete(`/campaigns/${soon.id}`, { token: c.admin })).status).toBe(200);
  });

  it('lets a CANCELADA campaign change its messages only', async () => {
    const c = await company();
    const stopped = await create(c, complete(c, { confirmation: true, confirmationMessage1: 'Podemos enviar?' }));
    await setStatus(stopped.id, 'CANCELADA', new Date(Date.now() - HOUR).toISOString());
    const current = (await http.get(`/campaigns/${stopped.id}`, { token: c.admin })).body;

    // the whole form sent back with new texts: taken
    const texts = await http.put(`/campaigns/${stopped.id}`, {
      token: c.admin,
      body: { ...current, message1: 'Nova versão', message3: 'Terceira', confirmationMessage2: 'Posso mandar?' },
    });
    expect(texts.status).toBe(200);
    expect(texts.body).toMatchObject({
      status: 'CANCELADA',
      message1: 'Nova versão',
      message3: 'Terceira',
      confirmationMessage2: 'Posso mandar?',
    });
    // the form sent back as it is: nothing to change
    const same = await http.put(`/campaigns/${stopped.id}`, {
      token: c.admin,
      body: { name: current.name, scheduledAt: current.scheduledAt },
    });
    expect(same.status).toBe(200);
    for (const change of [{ name: 'Outro nome' }, { scheduledAt: inHours(5) }, { contactListId: null }, { confirmation: false }]) {
      const refused = await http.put(`/campaigns/${stopped.id}`, { token: c.admin, body: { message1: 'De novo', ...change } });
      expect({ change, status: refused.status, error: refused.body.error }).toEqual({
        change,
        status: 409,
        error: 'ERR_CAMPAIGN_NOT_EDITABLE',
      });
    }
    expect(await rowOf(stopped.id)).toMatchObject({ name: 'Black Friday', message1: 'Nova versão', status: 'CANCELADA' });
    const media = await http.post(`/campaigns/${stopped.id}/media-upload`, {
      token: c.admin,
      form: mediaForm([{ field: 'file', name: 'foto.png', data: pngFile(), type: 'image/png' }]),
    });
    expect(media.status).toBe(409);
  });

  it("answers 404 for another company's campaign on every route", async () => {
    const a = await company();
    const b = await company();
    const mine = await create(a, complete(a));
    const calls = [
      http.get(`/campaigns/${mine.id}`, { token: b.admin }),
      http.put(`/campaigns/${mine.id}`, { token: b.admin, body: { name: 'Roubada' } }),
      http.delete(`/campaigns/${mine.id}`, { token: b.admin }),
      http.get(`/campaigns/${mine.id}/report`, { token: b.admin }),
      http.get(`/campaigns/${mine.id}/report/export`, { token: b.admin }),
      http.post(`/campaigns/${mine.id}/media-upload`, {
        token: b.admin,
        form: mediaForm([{ field: 'file', name: 'foto.png', data: pngFile(), type: 'image/png' }]),
      }),
      http.delete(`/campaigns/${mine.id}/media-upload`, { token: b.admin }),
      http.post(`/campaigns/${mine.id}/cancel`, { token: b.admin }),
      http.post(`/campaigns/${mine.id}/restart`, { token: b.admin }),
    ];
    for (const res of await Promise.all(calls))
      expect({ status: res.status, error: res.body.error }).toEqual({ status: 404, error: 'ERR_NO_CAMPAIGN_FOUND' });
    expect((await http.get('/campaigns', { token: b.admin })).body.count).toBe(0);
    expect((await http.get(`/campaigns/${mine.id}`, { token: a.admin })).body).toMatchObject({ name: 'Black Friday', mediaPath: null });
  });

  it('takes an attachment checked by its bytes (a program renamed .jpg is refused) and removes it', async () => {
    const c = await company();
    const campaign = await create(c, complete(c));
    const upload = (name: string, data: Buffer, type?: string) =>
      http.post(`/campaigns/${campaign.id}/media-upload`, { token: c.admin, form: mediaForm([{ field: 'file', name, data, type }]) });

    const attached = await upload('Promoção.png', pngFile());
    expect(attached.status).toBe(200);
    expect(attached.body.mediaName).toBe('Promocao.png');
    expect(attached.body.mediaPath).toMatch(new RegExp(`^/media/${c.companyId}/campaign-${campaign.id}-[0-9a-f-]{36}/Promocao\\.png$`));

    const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(62), Buffer.from('PE\0\0'), Buffer.alloc(400, 1)]);
    const refused = await upload('foto.jpg', exe, 'image/jpeg');
    expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 400, error: 'ERR_VALIDATION' });
    const none = await http.post(`/campaigns/${campaign.id}/media-upload`, { token: c.admin, form: mediaForm([]) });
    expect(none.body.details).toEqual([{ field: 'file', messages: ['Obrigatório'] }]);
    expect((await http.get(`/campaigns/${campaign.id}`, { token: c.admin })).body.mediaPath).toBe(attached.body.mediaPath);
    expect((await upload('x.png', pngFile(), 'image/png')).status).toBe(200);
    expect(
      (
        await http.post(`/campaigns/${campaign.id}/media-upload`, {
          token: c.agent,
          form: mediaForm([{ field: 'file', name: 'x.png', data: pngFile() }]),
        })
      ).status,
    ).toBe(403);

    const detached = await http.delete(`/campaigns/${campaign.id}/media-upload`, { token: c.admin });
    expect(detached.status).toBe(200);
    expect(detached.body).toMatchObject({ mediaPath: null, mediaName: null });
  });

  it('reports the counts of its rows and exports them as formula-safe CSV', async () => {
    const c = await company();
    const campaign = await create(c, complete(c, { confirmation: true, confirmationMessage1: 'Posso enviar?' }));
    const empty = await http.get(`/campaigns/${campaign.id}/report`, { token: c.agent });
    expect(empty.body).toEqual({
      valid: 0,
      invalid: 0,
      sent: 0,
      delivered: 0,
      read: 0,
      failed: 0,
      pending: 0,
      confirmationRequested: 0,
      confirmed: 0,
      optedOut: 0,
    });
    await setStatus(campaign.id, 'FINALIZADA');
    const rows: Array<[string, string, string, string]> = [
      // number, name, status, which times are set
      ['5511900000001', 'Ana', 'sent', 'sent,delivered,read,confirmationRequested,confirmed'],
      ['5511900000002', '=HYPERLINK("http://x";"y")', 'sent', 'sent,delivered'],
      ['5511900000003', 'Caio; "o grande"', 'sent', 'sent'],
      ['5511900000004', 'Dora', 'failed', 'failed'],
      ['5511900000005', 'Enzo', 'invalid', ''],
      ['5511900000006', 'Fábio', 'opted_out', ''],
      ['5511900000007', 'Gil', 'pending', ''],
      ['5511900000008', '+Hugo', 'confirming', 'confirmationRequested'],
      ['5511900000009', 'Ivo', 'unconfirmed', 'confirmationRequested'],
    ];
    for (const [number, name, status, times] of rows) {
      const has = (k: string) => (times.split(',').includes(k) ? new Date() : null);
      await db.query(
        `INSERT INTO campaigns.shippings ("companyId", "campaignId", "connectionId", number, name, status, message, "sentAt", "deliveredAt",
                "readAt", "failedAt", "failedReason", "confirmationRequestedAt", "confirmedAt", ack)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
        [
          c.companyId,
          campaign.id,
          c.connectionId,
          number,
          name,
          status,
          status === 'sent' ? `Olá ${name}!` : null,
          has('sent'),
          has('delivered'),
          has('read'),
          has('failed'),
          status === 'failed' ? '@falhou' : null,
          has('confirmationRequested'),
          has('confirmed'),
          has('read') ? 3 : has('delivered') ? 2 : has('sent') ? 1 : 0,
        ],
      );
    }
    const report = await http.get(`/campaigns/${campaign.id}/report`, { token: c.agent });
    expect(report.body).toEqual({
      valid: 8,
      invalid: 1,
      sent: 3,
      delivered: 2,
      read: 1,
      failed: 1,
      pending: 1,
      confirmationRequested: 3,
      confirmed: 1,
      optedOut: 1,
    });

    const csv = await http.get(`/campaigns/${campaign.id}/report/export`, { token: c.agent });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toContain('attachment');
    const lines = (csv.body as string)
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(
      'number;name;email;status;message;sentAt;deliveredAt;readAt;failedAt;failedReason;confirmationMessage;confirmationRequestedAt;confirmedAt',
    );
    expect(lines).toHaveLength(10);
    expect(lines[1].startsWith('5511900000001;Ana;;sent;Olá Ana!;20')).toBe(true);
    // a cell that would run as a formula is written as text, quoted when it holds the separator
    expect(lines[2]).toContain(`;"'=HYPERLINK(""http://x"";""y"")";`);
    expect(lines[3]).toContain(';"Caio; ""o grande""";');
    expect(lines[4]).toContain(";'@falhou;");
    expect(lines[8]).toContain(";'+Hugo;");
    // every line has the header's 13 cells (separators inside quotes aside)
    for (const line of lines) expect(line.replace(/"(?:[^"]|"")*"/g, 'x').split(';')).toHaveLength(13);
  });
});

describe('campaign report export of a large campaign', () => {
  it('pages through every row once, in order', async () => {
    const c = await company();
    const campaign = await create(c, complete(c));
    await setStatus(campaign.id, 'FINALIZADA');
    await db.query(
      `INSERT INTO campaigns.shippings ("companyId", "campaignId", "connectionId", number, name, status, "sentAt", message)
       SELECT $1, $2, $3, (5511800000000 + g)::text, 'Contato ' || g, 'sent', now(), 'Oi'
         FROM generate_series(1, 2500) g`,
      [c.companyId, campaign.id, c.connectionId],
    );
    const csv = await http.get(`/campaigns/${campaign.id}/report/export`, { token: c.admin });
    const lines = (csv.body as string).trimEnd().split('\r\n').slice(1);
    expect(lines).toHaveLength(2500);
    expect(new Set(lines.map((l) => l.split(';')[0])).size).toBe(2500);
    expect(lines[0].startsWith('5511800000001;Contato 1;')).toBe(true);
    expect(lines[2499].startsWith('5511800002500;Contato 2500;')).toBe(true);
    expect((await http.get(`/campaigns/${campaign.id}/report`, { token: c.admin })).body).toMatchObject({ valid: 2500, sent: 2500 });
  });
});

describe('campaign settings (spec 02 §7, §9)', () => {
  it('answers the defaults, round-trips what an admin saves and refuses what is not an option', async () => {
    const c = await company();
    const other = await company();
    const asMap = (body: Array<{ key: string; value: string }>) => Object.fromEntries(body.map((s) => [s.key, JSON.parse(s.value)]));

    const defaults = await http.get('/campaign-settings', { token: c.agent });
    expect(defaults.status).toBe(200);
    expect(defaults.body.every((s: { value: unknown }) => typeof s.value === 'string')).toBe(true);
    expect(asMap(defaults.body)).toEqual({
      messageInterval: 20,
      longerIntervalAfter: 20,
      greaterInterval: 60,
      variables: [],
      optOutKeywords: ['SAIR', 'PARAR', 'STOP', 'CANCELAR', 'DESCADASTRAR'],
    });

    const settings = {
      messageInterval: 5,
      longerIntervalAfter: 0,
      greaterInterval: 120,
      variables: [
        { key: 'loja', value: 'Loja Centro' },
        { key: 'cupom', value: 'BF2026' },
      ],
      // the company's own opt-out words (trimmed, each once)
      optOutKeywords: ['SAIR', 'REMOVER'],
    };
    const saved = await http.post('/campaign-settings', {
      token: c.admin,
      body: { settings: { ...settings, optOutKeywords: [' SAIR ', 'REMOVER', 'REMOVER'] } },
    });
    expect(saved.status).toBe(200);
    expect(asMap(saved.body)).toEqual(settings);
    expect(asMap((await http.get('/campaign-settings', { token: c.agent })).body)).toEqual(settings);
    // another company's stay as they were
    expect(asMap((await http.get('/campaign-settings', { token: other.admin })).body).messageInterval).toBe(20);

    const post = (s: Record<string, unknown>, token = c.admin) =>
      http.post('/campaign-settings', { token, body: { settings: { ...settings, ...s } } });
    for (const bad of [{ messageInterval: 7 }, { longerIntervalAfter: 25 }, { greaterInterval: -1 }, { greaterInterval: '60' }]) {
      const res = await post(bad);
      expect({ bad, status: res.status, error: res.body.error }).toEqual({ bad, status: 400, error: 'ERR_VALIDATION' });
    }
    const twice = await post({
      variables: [
        { key: 'loja', value: 'A' },
        { key: 'Loja', value: 'B' },
      ],
    });
    expect(twice.status).toBe(400);
    expect(twice.body.details).toEqual([{ field: 'settings.variables.1.key', messages: ['This shortcut is already there'] }]);
    const reserved = await post({ variables: [{ key: 'nome', value: 'Fulano' }] });
    expect(reserved.status).toBe(400);
    expect((await post({ variables: [{ key: 'com espaço', value: 'x' }] })).status).toBe(400);
    expect((await http.post('/campaign-settings', { token: c.admin, body: {} })).status).toBe(400);
    expect((await post({ messageInterval: 10 }, c.agent)).status).toBe(403);
    expect(asMap((await http.get('/campaign-settings', { token: c.admin })).body)).toEqual(settings);
  });
});
