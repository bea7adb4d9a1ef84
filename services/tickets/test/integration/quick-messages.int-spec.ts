import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mediaForm, pdfFile, pngFile } from '@wa/testing';
import { startTickets, TestCompany, type TicketsUnderTest } from './harness.js';

let t: TicketsUnderTest;

beforeAll(async () => {
  t = await startTickets();
});

afterAll(async () => {
  await t?.close();
});

const create = async (token: string, body: Record<string, unknown>) => {
  const res = await t.http.post('/quick-messages', { token, body });
  expect(res.status).toBe(201);
  return res.body as { id: number; shortcode: string };
};

describe('quick messages (spec 02 §7 "Quick messages")', () => {
  it('creates, pages, searches, lists, edits and deletes; an agent uses their own and the shared ones', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const agent = await c.user('user');
    const other = await c.user('user');
    const shared = await create(admin.token, { shortcode: 'bomdia', message: 'Bom dia {{firstName}}!', geral: 1 });
    const own = await create(agent.token, { shortcode: 'pix', message: 'Nossa chave Pix é ...', isMedia: false, mediaPath: '' });
    await create(other.token, { shortcode: 'privado', message: 'só meu' });
    for (let i = 0; i < 22; i++)
      await create(admin.token, { shortcode: `item${String(i).padStart(2, '0')}`, message: `texto ${i}`, geral: true });

    const first = await t.http.get('/quick-messages?pageNumber=1', { token: agent.token });
    expect(first.status).toBe(200);
    expect(first.body.records).toHaveLength(20);
    expect(first.body.hasMore).toBe(true);
    const second = await t.http.get('/quick-messages?pageNumber=2', { token: agent.token });
    expect(second.body.hasMore).toBe(false);
    const seen = [...first.body.records, ...second.body.records].map((r: { shortcode: string }) => r.shortcode);
    expect(seen).toHaveLength(24);
    expect(seen).toContain('pix');
    expect(seen).toContain('bomdia');
    expect(seen).not.toContain('privado');
    // the admin sees every one of the company's
    expect((await t.http.get('/quick-messages/list', { token: admin.token })).body).toHaveLength(25);
    // search by shortcode or text, with LIKE's wildcards taken literally
    expect(
      (await t.http.get('/quick-messages?searchParam=PIX', { token: agent.token })).body.records.map((r: { id: number }) => r.id),
    ).toEqual([own.id]);
    expect(
      (await t.http.get(`/quick-messages?searchParam=${encodeURIComponent('{{firstName}}')}`, { token: agent.token })).body.records.map(
        (r: { id: number }) => r.id,
      ),
    ).toEqual([shared.id]);
    expect((await t.http.get('/quick-messages?searchParam=%25', { token: agent.token })).body.records).toEqual([]);
    // the original client's list call
    const list = await t.http.get(`/quick-messages/list?companyId=${c.companyId}&userId=${agent.id}`, { token: agent.token });
    expect(list.body.map((r: { shortcode: string }) => r.shortcode).slice(0, 3)).toEqual(['bomdia', 'item00', 'item01']);

    // the author edits theirs; an agent may not edit or delete a shared one made by the admin
    expect((await t.http.put(`/quick-messages/${own.id}`, { token: agent.token, body: { message: 'Chave Pix: 123' } })).body).toMatchObject(
      { shortcode: 'pix', message: 'Chave Pix: 123' },
    );
    expect((await t.http.put(`/quick-messages/${own.id}`, { token: agent.token, body: { shortcode: null } })).body.error).toBe(
      'ERR_VALIDATION',
    );
    const refused = await t.http.put(`/quick-messages/${shared.id}`, { token: agent.token, body: { message: 'mudado' } });
    expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 403, error: 'ERR_NO_PERMISSION' });
    expect((await t.http.delete(`/quick-messages/${shared.id}`, { token: agent.token })).status).toBe(403);
    expect((await t.http.get(`/quick-messages/${shared.id}`, { token: agent.token })).body.message).toBe('Bom dia {{firstName}}!');
    expect((await t.http.delete(`/quick-messages/${own.id}`, { token: admin.token })).status).toBe(200);
    expect((await t.http.get(`/quick-messages/${own.id}`, { token: agent.token })).body.error).toBe('ERR_NO_QUICK_MESSAGE_FOUND');
  });

  it('refuses a missing shortcode ("Obrigatório") and wrong types, writing nothing; company B reaches none of A\'s', async () => {
    const a = new TestCompany(t);
    const adminA = await a.user('admin');
    const b = new TestCompany(t);
    const adminB = await b.user('admin');
    const mine = await create(adminA.token, { shortcode: 'segredo', message: 'de A', geral: true });
    for (const body of [
      {},
      { shortcode: '' },
      { shortcode: 5 },
      { shortcode: 'x'.repeat(101) },
      { shortcode: 'ok', geral: 'yes' },
      { shortcode: 'ok', message: { a: 1 } },
    ]) {
      const res = await t.http.post('/quick-messages', { token: adminA.token, body });
      expect({ body, status: res.status, error: res.body.error }).toEqual({ body, status: 400, error: 'ERR_VALIDATION' });
    }
    expect(JSON.stringify((await t.http.post('/quick-messages', { token: adminA.token, body: {} })).body)).toContain('Obrigatório');
    expect((await t.http.get('/quick-messages/list', { token: adminA.token })).body.map((r: { id: number }) => r.id)).toEqual([mine.id]);
    expect((await t.http.get('/quick-messages?pageNumber=1e12', { token: adminA.token })).status).toBe(400);

    expect((await t.http.get(`/quick-messages/${mine.id}`, { token: adminB.token })).status).toBe(404);
    expect((await t.http.put(`/quick-messages/${mine.id}`, { token: adminB.token, body: { message: 'roubada' } })).status).toBe(404);
    expect((await t.http.delete(`/quick-messages/${mine.id}`, { token: adminB.token })).status).toBe(404);
    expect((await t.http.get('/quick-messages/list', { token: adminB.token })).body).toEqual([]);
    expect((await t.http.get(`/quick-messages?companyId=${a.companyId}`, { token: adminB.token })).body.records).toEqual([]);
    expect((await t.http.get(`/quick-messages/${mine.id}`, { token: adminA.token })).body.message).toBe('de A');
  });

  it('attaches a file to a quick reply (POST/DELETE /quick-messages/{id}/media-upload), served to the company only', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const agent = await c.user('user');
    const colleague = await c.user('user');
    const reply = await create(agent.token, { shortcode: 'catalogo', message: 'Segue o catálogo', geral: true });
    const upload = (token: string, name: string, data: Buffer, type?: string) =>
      t.http.post(`/quick-messages/${reply.id}/media-upload`, {
        token,
        form: mediaForm([{ field: 'file', name, data, type }], { typeArch: 'quickMessage' }),
      });
    const fetchFile = (path: string, token?: string) =>
      fetch(new URL(path, t.baseUrl), { headers: token ? { authorization: `Bearer ${token}` } : {} });

    const attached = await upload(agent.token, 'Catálogo 2026.pdf', pdfFile('catalogo'));
    expect(attached.status).toBe(200);
    expect(attached.body).toMatchObject({ isMedia: true, mediaName: 'Catalogo_2026.pdf' });
    expect(attached.body.mediaPath).toMatch(new RegExp(`^/media/${c.companyId}/[0-9a-f-]{36}/Catalogo_2026\\.pdf$`));
    const served = await fetchFile(attached.body.mediaPath, colleague.token);
    expect(Buffer.from(await served.arrayBuffer()).equals(pdfFile('catalogo'))).toBe(true);
    expect((await fetchFile(attached.body.mediaPath, (await new TestCompany(t).user('admin')).token)).status).toBe(404);

    // another file replaces it (the old one is gone); a fake one, a colleague's upload and a missing file are refused
    const again = await upload(agent.token, 'foto.png', pngFile(), 'image/png');
    expect(again.body).toMatchObject({ isMedia: true, mediaName: 'foto.png' });
    expect((await fetchFile(attached.body.mediaPath, agent.token)).status).toBe(404);
    expect((await upload(agent.token, 'foto.png', pdfFile(), 'image/png')).body.error).toBe('ERR_VALIDATION');
    expect((await upload(colleague.token, 'x.png', pngFile())).status).toBe(403);
    const none = await t.http.post(`/quick-messages/${reply.id}/media-upload`, {
      token: agent.token,
      form: mediaForm([], { typeArch: 'quickMessage' }),
    });
    expect(none.body.details).toEqual([{ field: 'file', messages: ['Obrigatório'] }]);
    // a client cannot point mediaPath at a stored file
    const forged = await t.http.put(`/quick-messages/${reply.id}`, { token: admin.token, body: { mediaPath: `${c.companyId}/x/y.png` } });
    expect(forged.body.mediaPath).toBe(again.body.mediaPath);

    const detached = await t.http.delete(`/quick-messages/${reply.id}/media-upload`, { token: admin.token });
    expect(detached.body).toMatchObject({ isMedia: false, mediaPath: null, mediaName: null });
    expect((await fetchFile(again.body.mediaPath, agent.token)).status).toBe(404);
  });
});
