import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mediaForm, pdfFile, pngFile } from '@wa/testing';
import { newQueue, startTickets, TestCompany, type TicketsUnderTest } from './harness.js';

let t: TicketsUnderTest;

beforeAll(async () => {
  t = await startTickets();
});

afterAll(async () => {
  await t?.close();
});

type Option = { id: number; queueId: number; parentId: number | null; option: string; title: string; message: string; children: number };

describe('queue options: the chatbot tree (spec 02 "Queue options")', () => {
  it('builds a two-level tree, lists each level by option number, edits, and deletes a branch with everything under it', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const queue = await newQueue(t, admin.token);
    const add = async (body: Record<string, unknown>) => {
      const res = await t.http.post('/queue-options', { token: admin.token, body: { queueId: queue.id, ...body } });
      expect(res.status).toBe(201);
      return res.body as Option;
    };
    const second = await add({ option: '2', title: 'Financeiro', message: 'Escolha: 1 boleto, 2 pix' });
    const first = await add({ option: '1', title: 'Comercial' });
    const boleto = await add({ parentId: second.id, option: '1', title: 'Boleto', message: 'Segue o boleto' });
    await add({ parentId: second.id, option: '2', title: 'Pix' });
    await add({ parentId: boleto.id, option: '1', title: 'Segunda via' });

    const top = await t.http.get(`/queue-options?queueId=${queue.id}`, { token: admin.token });
    expect(top.status).toBe(200);
    expect(top.body.map((o: Option) => [o.option, o.title, o.parentId, o.children])).toEqual([
      ['1', 'Comercial', null, 0],
      ['2', 'Financeiro', null, 2],
    ]);
    const under = await t.http.get(`/queue-options?queueId=${queue.id}&parentId=${second.id}`, { token: admin.token });
    expect(under.body.map((o: Option) => [o.option, o.title, o.message, o.children])).toEqual([
      ['1', 'Boleto', 'Segue o boleto', 1],
      ['2', 'Pix', '', 0],
    ]);

    // the same number twice on a level is refused; on another level it is fine
    const twice = await t.http.post('/queue-options', { token: admin.token, body: { queueId: queue.id, option: '1', title: 'Outro' } });
    expect(twice.status).toBe(400);
    expect(twice.body).toMatchObject({
      error: 'ERR_VALIDATION',
      details: [{ field: 'option', messages: ['Esta opção já existe neste nível'] }],
    });
    const renumbered = await t.http.put(`/queue-options/${first.id}`, { token: admin.token, body: { option: '3', title: '  Vendas  ' } });
    expect(renumbered.body).toMatchObject({ id: first.id, option: '3', title: 'Vendas' });
    expect((await t.http.put(`/queue-options/${first.id}`, { token: admin.token, body: { option: '2' } })).status).toBe(400);

    // deleting a branch takes its sub-options with it
    expect((await t.http.delete(`/queue-options/${second.id}`, { token: admin.token })).status).toBe(200);
    expect((await t.http.get(`/queue-options?queueId=${queue.id}`, { token: admin.token })).body.map((o: Option) => o.title)).toEqual([
      'Vendas',
    ]);
    expect((await t.http.put(`/queue-options/${boleto.id}`, { token: admin.token, body: { title: 'x' } })).status).toBe(404);
    // and deleting the queue takes its tree
    expect((await t.http.delete(`/queue/${queue.id}`, { token: admin.token })).status).toBe(200);
    expect((await t.http.put(`/queue-options/${first.id}`, { token: admin.token, body: { title: 'x' } })).status).toBe(404);
  });

  it('refuses bad input, agents, and another company’s queues and options', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const agent = await c.user('user');
    const queue = await newQueue(t, admin.token);
    const other = new TestCompany(t);
    const otherAdmin = await other.user('admin');
    const otherQueue = await newQueue(t, otherAdmin.token);
    const mine = (await t.http.post('/queue-options', { token: admin.token, body: { queueId: queue.id, option: '1', title: 'Suporte' } }))
      .body as Option;

    const bad = async (body: Record<string, unknown>, field: string) => {
      const res = await t.http.post('/queue-options', {
        token: admin.token,
        body: { queueId: queue.id, option: '5', title: 'Ok', ...body },
      });
      expect({
        status: res.status,
        error: res.body.error,
        fields: (res.body.details ?? []).map((d: { field: string }) => d.field),
      }).toEqual({
        status: 400,
        error: 'ERR_VALIDATION',
        fields: [field],
      });
    };
    await bad({ title: '   ' }, 'title');
    await bad({ option: '0' }, 'option');
    await bad({ option: '#' }, 'option');
    await bad({ option: '1000' }, 'option');
    await bad({ option: 'a' }, 'option');
    await bad({ parentId: 999_999_999 }, 'parentId');
    const nothing = await t.http.get(`/queue-options?queueId=abc`, { token: admin.token });
    expect(nothing.status).toBe(400);

    // an agent does not manage the tree
    expect((await t.http.get(`/queue-options?queueId=${queue.id}`, { token: agent.token })).status).toBe(403);
    expect((await t.http.post('/queue-options', { token: agent.token, body: { queueId: queue.id, option: '2', title: 'x' } })).status).toBe(
      403,
    );

    // another company's admin sees and touches nothing of it, and cannot hang options on it
    expect((await t.http.get(`/queue-options?queueId=${queue.id}`, { token: otherAdmin.token })).status).toBe(404);
    expect((await t.http.put(`/queue-options/${mine.id}`, { token: otherAdmin.token, body: { title: 'tomado' } })).status).toBe(404);
    expect((await t.http.delete(`/queue-options/${mine.id}`, { token: otherAdmin.token })).status).toBe(404);
    const hung = await t.http.post('/queue-options', {
      token: otherAdmin.token,
      body: { queueId: otherQueue.id, parentId: mine.id, option: '1', title: 'x' },
    });
    expect(hung.status).toBe(400);
    expect(
      (await t.http.post('/queue-options', { token: admin.token, body: { queueId: otherQueue.id, option: '1', title: 'x' } })).status,
    ).toBe(404);
    expect((await t.http.get(`/queue-options?queueId=${queue.id}`, { token: admin.token })).body.map((o: Option) => o.title)).toEqual([
      'Suporte',
    ]);
  });
  it('a queue and an option each carry a file (POST/DELETE …/media-upload), served to the company only and gone with them', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const agent = await c.user('user');
    const queue = await newQueue(t, admin.token);
    const option = (
      await t.http.post('/queue-options', { token: admin.token, body: { queueId: queue.id, option: '1', title: 'Cardápio' } })
    ).body as Option;
    const sub = (
      await t.http.post('/queue-options', {
        token: admin.token,
        body: { queueId: queue.id, parentId: option.id, option: '1', title: 'Bebidas' },
      })
    ).body as Option;
    const upload = (path: string, token: string, name: string, data: Buffer, type?: string) =>
      t.http.post(path, { token, form: mediaForm([{ field: 'file', name, data, type }]) });
    const fetchFile = (path: string, token: string) => fetch(new URL(path, t.baseUrl), { headers: { authorization: `Bearer ${token}` } });

    const queueFile = await upload(`/queue/${queue.id}/media-upload`, admin.token, 'Boas vindas.png', pngFile(), 'image/png');
    expect(queueFile.status).toBe(200);
    expect(queueFile.body).toMatchObject({ id: queue.id, mediaName: 'Boas_vindas.png' });
    expect(queueFile.body.mediaPath).toMatch(new RegExp(`^/media/${c.companyId}/`));
    expect((await fetchFile(queueFile.body.mediaPath, agent.token)).status).toBe(200);
    expect((await fetchFile(queueFile.body.mediaPath, (await new TestCompany(t).user('admin')).token)).status).toBe(404);
    expect((await t.http.get(`/queue/${queue.id}`, { token: admin.token })).body.mediaPath).toBe(queueFile.body.mediaPath);

    const optionFile = await upload(`/queue-options/${option.id}/media-upload`, admin.token, 'menu.pdf', pdfFile('menu'));
    expect(optionFile.body).toMatchObject({ id: option.id, mediaName: 'menu.pdf', children: 1 });
    const subFile = await upload(`/queue-options/${sub.id}/media-upload`, admin.token, 'bebidas.png', pngFile(), 'image/png');
    expect(Buffer.from(await (await fetchFile(optionFile.body.mediaPath, admin.token)).arrayBuffer()).equals(pdfFile('menu'))).toBe(true);

    // refused: no file, a file that is not what it says, an agent, another company's option
    expect(
      (await t.http.post(`/queue-options/${option.id}/media-upload`, { token: admin.token, form: mediaForm([]) })).body.details,
    ).toEqual([{ field: 'file', messages: ['Obrigatório'] }]);
    expect((await upload(`/queue/${queue.id}/media-upload`, admin.token, 'foto.png', pdfFile(), 'image/png')).body.error).toBe(
      'ERR_VALIDATION',
    );
    expect((await upload(`/queue/${queue.id}/media-upload`, agent.token, 'foto.png', pngFile(), 'image/png')).status).toBe(403);
    expect(
      (
        await upload(
          `/queue-options/${option.id}/media-upload`,
          (await new TestCompany(t).user('admin')).token,
          'x.png',
          pngFile(),
          'image/png',
        )
      ).status,
    ).toBe(404);

    // removed from the queue: the file is gone; the branch deleted: both its files are gone
    expect((await t.http.delete(`/queue/${queue.id}/media-upload`, { token: admin.token })).body).toMatchObject({
      mediaPath: null,
      mediaName: null,
    });
    expect((await fetchFile(queueFile.body.mediaPath, admin.token)).status).toBe(404);
    expect((await t.http.delete(`/queue-options/${option.id}`, { token: admin.token })).status).toBe(200);
    expect((await fetchFile(optionFile.body.mediaPath, admin.token)).status).toBe(404);
    expect((await fetchFile(subFile.body.mediaPath, admin.token)).status).toBe(404);

    // a queue deleted takes its file and its options' files
    const again = (await t.http.post('/queue-options', { token: admin.token, body: { queueId: queue.id, option: '2', title: 'Outro' } }))
      .body as Option;
    const kept = await upload(`/queue-options/${again.id}/media-upload`, admin.token, 'b.png', pngFile(), 'image/png');
    const own = await upload(`/queue/${queue.id}/media-upload`, admin.token, 'c.png', pngFile(), 'image/png');
    expect((await t.http.delete(`/queue/${queue.id}`, { token: admin.token })).status).toBe(200);
    expect((await fetchFile(kept.body.mediaPath, admin.token)).status).toBe(404);
    expect((await fetchFile(own.body.mediaPath, admin.token)).status).toBe(404);
  });
});

describe('a queue’s working hours (spec 02 "Queue": schedules)', () => {
  it('stores one entry per day in week order, checks days and times, and keeps them on other edits', async () => {
    const c = new TestCompany(t);
    const admin = await c.user('admin');
    const queue = await newQueue(t, admin.token);
    expect((await t.http.get(`/queue/${queue.id}`, { token: admin.token })).body.schedules).toEqual([]);
    const week = [
      { weekday: 'Sábado', weekdayEn: 'saturday', startTime: '08:00', endTime: '12:00' },
      { weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' },
      { weekday: 'Domingo', weekdayEn: 'sunday', startTime: '00:00', endTime: '00:00' },
    ];
    const saved = await t.http.put(`/queue/${queue.id}`, { token: admin.token, body: { schedules: week } });
    expect(saved.status).toBe(200);
    expect(saved.body.schedules.map((d: { weekdayEn: string }) => d.weekdayEn)).toEqual(['sunday', 'monday', 'saturday']);
    // another edit keeps them
    expect((await t.http.put(`/queue/${queue.id}`, { token: admin.token, body: { greetingMessage: 'Olá!' } })).body.schedules).toHaveLength(
      3,
    );

    const refused = async (schedules: unknown, message: string) => {
      const res = await t.http.put(`/queue/${queue.id}`, { token: admin.token, body: { schedules } });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body.details)).toContain(message);
    };
    await refused([{ weekday: 'Segunda', weekdayEn: 'monday', startTime: '8h', endTime: '18:00' }], 'Hora inválida');
    await refused([{ weekday: 'Segunda', weekdayEn: 'monday', startTime: '08:00', endTime: '24:00' }], 'Hora inválida');
    await refused([{ weekday: 'Dia', weekdayEn: 'someday', startTime: '08:00', endTime: '18:00' }], 'Dia inválido');
    await refused([week[1], week[1]], 'Dia repetido');
    await refused('todo dia', 'schedules');
    expect((await t.http.get(`/queue/${queue.id}`, { token: admin.token })).body.schedules).toHaveLength(3);
    // a new queue may come with them
    const made = await t.http.post('/queue', {
      token: admin.token,
      body: { name: `Horário ${Date.now()}`, color: '#0a0b0c', schedules: [week[1]] },
    });
    expect(made.body.schedules).toEqual([week[1]]);
  });
});
