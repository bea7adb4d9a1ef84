import { describe, expect, it } from '@jest/globals';
import type { WhatsappDto } from '@wa/contracts';
import { announce, createConnection, fieldMessages, sessionsSuite, tokenFor, type SessionsUnderTest } from './harness.js';

let svc: SessionsUnderTest;
const { companies, created } = sessionsSuite(4, (s) => (svc = s));

async function create(token: string, body: Record<string, unknown> = {}): Promise<WhatsappDto> {
  const c = await createConnection(svc, token, body);
  created.push({ id: c.id, token });
  return c;
}

describe("connections: ids of other records are the caller company's", () => {
  it("refuses another company's queue and prompt ids on create and update (400, nothing stored); its own pass", async () => {
    const [a, b] = [companies[0]!, companies[1]!];
    const bAdmin = tokenFor(b, 'admin');
    const queueOfA = await announce(svc, 'queue', a);
    const promptOfA = await announce(svc, 'prompt', a);
    const queueOfB = await announce(svc, 'queue', b);
    const promptOfB = await announce(svc, 'prompt', b);
    const borrowed: Array<[string, Record<string, unknown>]> = [
      ['queueIds', { queueIds: [queueOfB, queueOfA], greetingMessage: 'Olá' }],
      ['transferQueueId', { transferQueueId: queueOfA }],
      ['promptId', { promptId: promptOfA }],
    ];
    for (const [field, body] of borrowed) {
      const res = await svc.http.post('/whatsapp', { token: bAdmin, body: { name: `Emprestado ${field}`, ...body } });
      expect({ field, status: res.status, error: res.body.error }).toEqual({ field, status: 400, error: 'ERR_VALIDATION' });
      expect(fieldMessages(res.body, field)).toEqual([field === 'promptId' ? 'Prompt não encontrado' : 'Fila não encontrada']);
    }
    expect((await svc.http.get('/whatsapp', { token: bAdmin })).body).toEqual([]);
    const mine = await create(bAdmin, { name: 'Própria', queueIds: [queueOfB], transferQueueId: queueOfB, promptId: promptOfB });
    expect(mine).toMatchObject({ queueIds: [queueOfB], transferQueueId: queueOfB, promptId: promptOfB });
    for (const [field, body] of borrowed) {
      const res = await svc.http.put(`/whatsapp/${mine.id}`, { token: bAdmin, body: { ...body, name: `Mudou ${field}` } });
      expect({ field, status: res.status, error: res.body.error }).toEqual({ field, status: 400, error: 'ERR_VALIDATION' });
    }
    const row = (
      await svc.db.query(`SELECT name, "queueIds", "transferQueueId", "promptId" FROM whatsapp.connections WHERE id = $1`, [mine.id])
    )[0];
    expect({ ...row, queueIds: row.queueIds.map(Number) }).toEqual({
      name: 'Própria',
      queueIds: [queueOfB],
      transferQueueId: queueOfB,
      promptId: promptOfB,
    });
  });

  it('refuses ids nobody announced and ids of deleted queues', async () => {
    const c = companies[2]!;
    const admin = tokenFor(c, 'admin');
    const gone = await announce(svc, 'queue', c);
    await svc.bus.publish(`queue.deleted.${c}.${gone}`, { companyId: c, queueId: gone }, { msgId: `test-queue-deleted:${gone}` });
    await svc.bus.publish(
      `queue.updated.${c}.${gone}`,
      { companyId: c, queue: { id: gone, name: 'late', color: '#000000' } },
      { msgId: `test-queue-late:${gone}` },
    );
    const unknown = 2_147_000_000;
    for (const body of [{ queueIds: [unknown] }, { promptId: unknown }]) {
      expect((await svc.http.post('/whatsapp', { token: admin, body: { name: 'Nada', ...body } })).status).toBe(400);
    }
    // the deletion reached it (the late update does not bring the queue back)
    const refused = await (async () => {
      for (let i = 0; i < 50; i++) {
        const res = await svc.http.post('/whatsapp', { token: admin, body: { name: 'Apagada', queueIds: [gone] } });
        if (res.status === 400) return res;
        created.push({ id: res.body.id, token: admin });
        await new Promise((r) => setTimeout(r, 200));
      }
      return undefined;
    })();
    expect(refused?.body.error).toBe('ERR_VALIDATION');
  });
});
