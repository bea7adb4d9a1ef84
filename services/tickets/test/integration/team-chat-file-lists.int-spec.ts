import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTickets, TestCompany, type TicketsUnderTest } from './harness.js';

/**
 * The two modules that depend only on identity and the outbox: team chat (`/chats`) and file lists (`/files`).
 * Every statement of theirs names the company as well as the row (tenancy-queries checks the text); here each
 * path runs, and another company's user reaches nothing of them by id.
 */

let t: TicketsUnderTest;

beforeAll(async () => {
  t = await startTickets();
});

afterAll(async () => {
  await t?.close();
});

describe('team chat (spec 01 "Internal chat")', () => {
  it('makes a chat, sends, pages, reads, renames, changes members and deletes; another company sees none of it', async () => {
    const c = new TestCompany(t);
    const ana = await c.user('admin', [], 'Ana');
    const bruno = await c.user('user', [], 'Bruno');
    const carla = await c.user('user', [], 'Carla');
    const created = await t.http.post('/chats', { token: ana.token, body: { title: 'Plantão', users: [{ id: bruno.id }] } });
    expect(created.status).toBe(201);
    const chat = created.body as { id: number; uuid: string; users: Array<{ userId: number }> };
    expect(chat.users.map((u) => u.userId).sort()).toEqual([ana.id, bruno.id].sort());

    const sent = await t.http.post(`/chats/${chat.id}/messages`, { token: ana.token, body: { message: 'bom dia' } });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ chatId: chat.id, message: 'bom dia', senderId: ana.id });
    const page = await t.http.get(`/chats/${chat.uuid}/messages`, { token: bruno.token });
    expect(page.body).toMatchObject({ count: 1, records: [{ message: 'bom dia' }] });
    const unread = await t.http.get(`/chats/${chat.id}`, { token: bruno.token });
    expect(unread.body).toMatchObject({
      lastMessage: 'bom dia',
      users: expect.arrayContaining([expect.objectContaining({ userId: bruno.id, unreads: 1 })]),
    });
    const read = await t.http.post(`/chats/${chat.id}/read`, { token: bruno.token, body: { userId: bruno.id } });
    expect(read.body.users).toEqual(expect.arrayContaining([expect.objectContaining({ userId: bruno.id, unreads: 0 })]));
    expect((await t.http.get('/chats', { token: bruno.token })).body).toMatchObject({ count: 1, records: [{ id: chat.id }] });

    const changed = await t.http.put(`/chats/${chat.id}`, {
      token: ana.token,
      body: { title: 'Plantão noturno', users: [{ id: carla.id }] },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.title).toBe('Plantão noturno');
    expect((changed.body.users as Array<{ userId: number }>).map((u) => u.userId).sort()).toEqual([ana.id, carla.id].sort());
    expect((await t.http.get(`/chats/${chat.id}`, { token: bruno.token })).status).toBe(404);

    const other = await new TestCompany(t).user('admin');
    expect((await t.http.get(`/chats/${chat.id}`, { token: other.token })).status).toBe(404);
    expect((await t.http.delete(`/chats/${chat.id}`, { token: other.token })).status).toBe(404);

    expect((await t.http.delete(`/chats/${chat.id}`, { token: ana.token })).status).toBeLessThan(300);
    expect((await t.http.get(`/chats/${chat.id}`, { token: ana.token })).status).toBe(404);
  });
});

describe('file lists (spec 02 "File list")', () => {
  it('makes a list with options, renames and reorders them, pages, and deletes; another company sees none of it', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const created = await t.http.post('/files', {
      token: admin.token,
      body: { name: 'Catálogo', message: 'Segue o catálogo', options: [{ name: 'PDF' }, { name: 'Tabela' }] },
    });
    expect(created.status).toBe(201);
    const list = created.body as { id: number; options: Array<{ id: number; name: string }> };
    expect(list.options.map((o) => o.name)).toEqual(['PDF', 'Tabela']);
    const [pdf] = list.options as [{ id: number; name: string }];

    const changed = await t.http.put(`/files/${list.id}`, {
      token: admin.token,
      body: { name: 'Catálogo 2026', options: [{ name: 'Preços' }, { id: pdf.id, name: 'PDF completo' }] },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ name: 'Catálogo 2026', message: 'Segue o catálogo' });
    expect((changed.body.options as Array<{ id: number; name: string }>).map((o) => o.name)).toEqual(['Preços', 'PDF completo']);
    expect((changed.body.options as Array<{ id: number }>).some((o) => o.id === pdf.id)).toBe(true);

    const page = await t.http.get('/files?searchParam=catálogo', { token: admin.token });
    expect(page.body).toMatchObject({ count: 1, files: [{ id: list.id }] });

    const other = await new TestCompany(t).user('admin');
    expect((await t.http.get(`/files/${list.id}`, { token: other.token })).status).toBe(404);
    expect((await t.http.delete(`/files/${list.id}`, { token: other.token })).status).toBe(404);

    expect((await t.http.delete(`/files/${list.id}`, { token: admin.token })).status).toBe(200);
    expect((await t.http.get(`/files/${list.id}`, { token: admin.token })).status).toBe(404);
  });
});
