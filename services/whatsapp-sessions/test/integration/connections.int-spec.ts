import { describe, expect, it } from '@jest/globals';
import type { ConnectionChangedEvent, ConnectionDeletedEvent, WhatsappDto } from '@wa/contracts';
import { ConnectionTokens } from '../../src/connections/connection-tokens.js';
import { randomBytes } from 'node:crypto';
import {
  announce,
  Collector,
  createConnection,
  fieldMessages,
  sessionsSuite,
  tokenFor,
  waitForStatus,
  type SessionsUnderTest,
} from './harness.js';

let next = 0;
let svc: SessionsUnderTest;
const { companies, created } = sessionsSuite(18, (s) => (svc = s));

function newCompany() {
  const companyId = companies[next++]!;
  return { companyId, admin: tokenFor(companyId, 'admin'), agent: tokenFor(companyId, 'user') };
}

async function create(token: string, body: Record<string, unknown> = {}): Promise<WhatsappDto> {
  const c = await createConnection(svc, token, body);
  created.push({ id: c.id, token });
  return c;
}

async function list(token: string): Promise<WhatsappDto[]> {
  const res = await svc.http.get('/whatsapp', { token });
  expect(res.status).toBe(200);
  return res.body;
}

describe('connections: validation and defaults', () => {
  it('answers the name field with the form messages', async () => {
    const { admin } = newCompany();
    const missing = await svc.http.post('/whatsapp', { token: admin, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('ERR_VALIDATION');
    expect(fieldMessages(missing.body, 'name')).toContain('Required');
    const blank = await svc.http.post('/whatsapp', { token: admin, body: { name: '   ' } });
    expect(fieldMessages(blank.body, 'name')).toContain('Required');
    const short = await svc.http.post('/whatsapp', { token: admin, body: { name: 'A' } });
    expect(fieldMessages(short.body, 'name')).toContain('Too Short!');
    const long = await svc.http.post('/whatsapp', { token: admin, body: { name: 'x'.repeat(51) } });
    expect(fieldMessages(long.body, 'name')).toContain('Too Long!');
    const wrong = await svc.http.post('/whatsapp', {
      token: admin,
      body: { name: 'Valid', queueIds: 'x', provider: 'nightly', channel: 'telegram' },
    });
    expect(wrong.status).toBe(400);
    for (const field of ['queueIds', 'provider', 'channel']) expect(fieldMessages(wrong.body, field).length).toBeGreaterThan(0);
    expect(await list(admin)).toEqual([]);
  });

  it('fills the defaults of the form and makes the first connection the default', async () => {
    const { admin, companyId } = newCompany();
    const c = await create(admin, { name: 'Atendimento' });
    expect(c).toMatchObject({
      companyId,
      name: 'Atendimento',
      isDefault: true,
      maxUseBotQueues: 3,
      expiresTicket: 0,
      timeUseBotQueues: 0,
      timeToTransfer: 0,
      provider: 'beta',
      channel: 'sandbox',
      greetingMessage: '',
      complationMessage: '',
      transferQueueId: null,
      promptId: null,
      queueIds: [],
      queues: [],
      retries: 0,
    });
    expect(Date.parse(c.createdAt)).not.toBeNaN();
    // its API token is drawn by the server: 32 random bytes, base64url
    expect(c.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const again = await svc.http.get(`/whatsapp/${c.id}`, { token: admin });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: c.id, name: 'Atendimento', isDefault: true });
  });

  it('stores every field of the form, numbers typed as text included', async () => {
    const { admin, companyId } = newCompany();
    const [q7, q8, q9] = [
      await announce(svc, 'queue', companyId),
      await announce(svc, 'queue', companyId),
      await announce(svc, 'queue', companyId),
    ];
    const c = await create(admin, {
      name: 'Vendas',
      greetingMessage: 'Olá!',
      complationMessage: 'Até logo',
      outOfHoursMessage: 'Fechado',
      ratingMessage: 'Avalie',
      expiresInactiveMessage: 'Encerrado por inatividade',
      expiresTicket: '30',
      timeToTransfer: 5,
      transferQueueId: q7,
      timeUseBotQueues: 2,
      maxUseBotQueues: 4,
      provider: 'stable',
      token: longToken(),
      promptId: '',
      queueIds: [q7, q8, q8],
    });
    expect(c).toMatchObject({
      expiresTicket: 30,
      timeToTransfer: 5,
      transferQueueId: q7,
      maxUseBotQueues: 4,
      provider: 'stable',
      promptId: null,
      queueIds: [q7, q8],
    });
    expect(c.queues).toEqual([{ id: q7 }, { id: q8 }]);
    const put = await svc.http.put(`/whatsapp/${c.id}`, {
      token: admin,
      body: { name: 'Vendas 2', complationMessage: 'Tchau', queueIds: [q9], transferQueueId: null },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      name: 'Vendas 2',
      complationMessage: 'Tchau',
      greetingMessage: 'Olá!',
      queueIds: [q9],
      transferQueueId: null,
      provider: 'stable',
    });
    expect(Date.parse(put.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(c.updatedAt));
  });

  it('keeps names unique in a company (whatever the case) but not across companies, and tokens unique', async () => {
    const a = newCompany();
    const b = newCompany();
    const first = await create(a.admin, { name: 'Suporte', token: longToken() });
    const dup = await svc.http.post('/whatsapp', { token: a.admin, body: { name: 'SUPORTE' } });
    expect(dup.status).toBe(400);
    expect(fieldMessages(dup.body, 'name')).toEqual(['This whatsapp name is already used.']);
    const second = await create(a.admin, { name: 'Outro' });
    const rename = await svc.http.put(`/whatsapp/${second.id}`, { token: a.admin, body: { name: 'suporte' } });
    expect(rename.status).toBe(400);
    await create(b.admin, { name: 'Suporte' });
    const sameToken = await svc.http.post('/whatsapp', { token: b.admin, body: { name: 'Token', token: first.token } });
    expect(sameToken.status).toBe(400);
    expect(fieldMessages(sameToken.body, 'token').length).toBe(1);
  });
});

describe('connections: what agents see', () => {
  it('gives agents every connection without its API token and QR code; admins get both', async () => {
    const { admin, agent } = newCompany();
    const c = await create(admin, { name: 'Com token', token: SECRET_1 });
    // the sandbox session settles first (its status write clears the QR code), then a QR code is on record
    await waitForStatus(svc, admin, c.id, 'CONNECTED');
    await svc.db.query(`UPDATE whatsapp.connections SET qrcode = 'QR-SECRET' WHERE id = $1`, [c.id]);
    const asAdmin = (await list(admin)).find((x) => x.id === c.id)!;
    expect(asAdmin).toMatchObject({ token: SECRET_1, qrcode: 'QR-SECRET' });
    const asAgent = await list(agent);
    expect(asAgent.map((x) => x.id)).toContain(c.id);
    expect(asAgent.find((x) => x.id === c.id)).toMatchObject({ name: 'Com token', token: null, qrcode: '' });
    const one = await svc.http.get(`/whatsapp/${c.id}`, { token: agent });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: c.id, token: null, qrcode: '' });
    expect(JSON.stringify([asAgent, one.body])).not.toMatch(new RegExp(`${SECRET_1}|QR-SECRET`));
    expect((await svc.http.get(`/whatsapp/${c.id}`, { token: admin })).body).toMatchObject({ token: SECRET_1, qrcode: 'QR-SECRET' });
  });
});

describe('connections: the API token at rest', () => {
  it('stores it encrypted (admins still read it), keeps it unique, never puts it in an event, and seals one stored in clear at start', async () => {
    const { companyId, admin } = newCompany();
    const events = new Collector<ConnectionChangedEvent>(svc.nc, `connection.updated.${companyId}.>`);
    const c = await create(admin, { name: 'Cofre', token: AT_REST_1 });
    const stored = async () =>
      (await svc.db.query(`SELECT token, "tokenHash" FROM whatsapp.connections WHERE id = $1`, [c.id]))[0] as {
        token: string;
        tokenHash: string;
      };
    const first = await stored();
    expect(first.token).toMatch(/^enc:v1:/);
    expect(first.token).not.toContain(AT_REST_1);
    expect(first.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect((await svc.http.get(`/whatsapp/${c.id}`, { token: admin })).body.token).toBe(AT_REST_1);
    // the same token elsewhere is still refused, though its two encryptions differ
    const again = await svc.http.post('/whatsapp', { token: admin, body: { name: 'Outra', token: AT_REST_1 } });
    expect(again.status).toBe(400);
    expect(fieldMessages(again.body, 'token').length).toBe(1);
    // changed, then cleared
    expect((await svc.http.put(`/whatsapp/${c.id}`, { token: admin, body: { token: AT_REST_2 } })).body.token).toBe(AT_REST_2);
    expect((await stored()).token).not.toBe(first.token);
    await events.waitFor((e) => e.data.connection.id === c.id);
    expect(JSON.stringify(events.items)).not.toMatch(/api-token-at-rest|enc:v1:/);
    // emptied: the server draws a new one
    const drawn = (await svc.http.put(`/whatsapp/${c.id}`, { token: admin, body: { token: '' } })).body.token as string;
    expect(drawn).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await stored()).token).toMatch(/^enc:v1:/);
    expect((await stored()).token).not.toContain(drawn);
    // a row from before tokens were sealed: sealed when the service starts, shown as it was
    await svc.db.query(`UPDATE whatsapp.connections SET token = 'legacy-clear-token', "tokenHash" = NULL WHERE id = $1`, [c.id]);
    await svc.app.get(ConnectionTokens).onApplicationBootstrap();
    expect((await stored()).token).toMatch(/^enc:v1:/);
    expect((await svc.http.get(`/whatsapp/${c.id}`, { token: admin })).body.token).toBe('legacy-clear-token');
    events.close();
  });
});

describe('connections: the one default', () => {
  it('moves the default flag, refuses to leave the company without one and promotes another on delete', async () => {
    const { admin } = newCompany();
    const a = await create(admin, { name: 'Primeira' });
    const b = await create(admin, { name: 'Segunda', isDefault: false });
    expect(b.isDefault).toBe(false);
    const c = await create(admin, { name: 'Terceira', isDefault: true });
    expect(c.isDefault).toBe(true);
    const defaults = () => list(admin).then((l) => l.filter((x) => x.isDefault).map((x) => x.id));
    expect(await defaults()).toEqual([c.id]);

    const makeA = await svc.http.put(`/whatsapp/${a.id}`, { token: admin, body: { isDefault: true } });
    expect(makeA.status).toBe(200);
    expect(makeA.body.isDefault).toBe(true);
    expect(await defaults()).toEqual([a.id]);

    const unset = await svc.http.put(`/whatsapp/${a.id}`, { token: admin, body: { isDefault: false } });
    expect(unset.status).toBe(400);
    expect(unset.body.error).toBe('ERR_NO_OTHER_WHATSAPP');
    expect(await defaults()).toEqual([a.id]);
    // un-defaulting one that is not the default is harmless
    expect((await svc.http.put(`/whatsapp/${b.id}`, { token: admin, body: { isDefault: false, name: 'Segunda!' } })).status).toBe(200);

    const del = await svc.http.delete(`/whatsapp/${a.id}`, { token: admin });
    expect(del.status).toBe(200);
    expect(await defaults()).toEqual([b.id]); // the oldest remaining
    expect((await svc.http.delete(`/whatsapp/${c.id}`, { token: admin })).status).toBe(200);
    expect(await defaults()).toEqual([b.id]);
    expect((await svc.http.delete(`/whatsapp/${b.id}`, { token: admin })).status).toBe(200);
    expect(await list(admin)).toEqual([]);
    expect((await svc.http.get(`/whatsapp/${b.id}`, { token: admin })).body.error).toBe('ERR_NO_WAPP_FOUND');
  });

  it('never gives a company two defaults when connections are created at once', async () => {
    const { admin } = newCompany();
    const made = await Promise.all(['Um', 'Dois', 'Três', 'Quatro'].map((name) => create(admin, { name })));
    expect(made.filter((c) => c.isDefault)).toHaveLength(1);
    expect((await list(admin)).filter((c) => c.isDefault)).toHaveLength(1);
  });
});

describe('connections: greeting rule', () => {
  it('needs a greeting when a connection has more than one queue', async () => {
    const { admin, companyId } = newCompany();
    const [q1, q2] = [await announce(svc, 'queue', companyId), await announce(svc, 'queue', companyId)];
    const refused = await svc.http.post('/whatsapp', { token: admin, body: { name: 'Filas', queueIds: [q1, q2] } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('ERR_WAPP_GREETING_REQUIRED');
    const blank = await svc.http.post('/whatsapp', { token: admin, body: { name: 'Filas', queueIds: [q1, q2], greetingMessage: '   ' } });
    expect(blank.body.error).toBe('ERR_WAPP_GREETING_REQUIRED');
    const one = await create(admin, { name: 'Uma fila', queueIds: [q1] });
    const more = await svc.http.put(`/whatsapp/${one.id}`, { token: admin, body: { queueIds: [q1, q2] } });
    expect(more.body.error).toBe('ERR_WAPP_GREETING_REQUIRED');
    const ok = await svc.http.put(`/whatsapp/${one.id}`, {
      token: admin,
      body: { queueIds: [q1, q2], greetingMessage: 'Escolha uma fila' },
    });
    expect(ok.status).toBe(200);
    const clear = await svc.http.put(`/whatsapp/${one.id}`, { token: admin, body: { greetingMessage: '' } });
    expect(clear.body.error).toBe('ERR_WAPP_GREETING_REQUIRED');
    expect((await svc.http.get(`/whatsapp/${one.id}`, { token: admin })).body.greetingMessage).toBe('Escolha uma fila');
  });
});

describe('connections: permissions and tenants', () => {
  it('lets agents read but only admins write', async () => {
    const { admin, agent } = newCompany();
    const c = await create(admin, { name: 'Central' });
    expect((await svc.http.get('/whatsapp/?session=0', { token: agent })).body.map((x: WhatsappDto) => x.id)).toEqual([c.id]);
    expect((await svc.http.get(`/whatsapp/${c.id}`, { token: agent })).status).toBe(200);
    for (const res of [
      await svc.http.post('/whatsapp', { token: agent, body: { name: 'Nope' } }),
      await svc.http.put(`/whatsapp/${c.id}`, { token: agent, body: { name: 'Hacked' } }),
      await svc.http.delete(`/whatsapp/${c.id}`, { token: agent }),
      await svc.http.post(`/whatsappsession/${c.id}`, { token: agent }),
      await svc.http.delete(`/whatsappsession/${c.id}`, { token: agent }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
    expect((await svc.http.get(`/whatsapp/${c.id}`, { token: admin })).body.name).toBe('Central');
    expect((await svc.http.get('/whatsapp')).status).toBe(401);
  });

  it("hides a company's connections from another company: 404 by id, absent from its list", async () => {
    const a = newCompany();
    const b = newCompany();
    const mine = await create(a.admin, { name: 'Da empresa A' });
    await create(b.admin, { name: 'Da empresa B' });
    for (const res of [
      await svc.http.get(`/whatsapp/${mine.id}`, { token: b.admin }),
      await svc.http.put(`/whatsapp/${mine.id}`, { token: b.admin, body: { name: 'Taken over', isDefault: true } }),
      await svc.http.delete(`/whatsapp/${mine.id}`, { token: b.admin }),
      await svc.http.post(`/whatsappsession/${mine.id}`, { token: b.admin }),
      await svc.http.put(`/whatsappsession/${mine.id}`, { token: b.admin }),
      await svc.http.delete(`/whatsappsession/${mine.id}`, { token: b.admin }),
      await svc.http.get(`/whatsappsession/${mine.id}/sandbox/outbox`, { token: b.admin }),
      await svc.http.post(`/whatsappsession/${mine.id}/sandbox/inbound`, { token: b.admin, body: { from: '5511999990001', body: 'oi' } }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('ERR_NO_WAPP_FOUND');
    }
    expect((await list(b.admin)).map((c) => c.name)).toEqual(['Da empresa B']);
    const still = await svc.http.get(`/whatsapp/${mine.id}`, { token: a.admin });
    expect(still.body).toMatchObject({ name: 'Da empresa A', isDefault: true, status: 'CONNECTED' });
    // the query's companyId is not trusted
    expect((await svc.http.get(`/whatsapp?companyId=${a.companyId}`, { token: b.admin })).body.map((c: WhatsappDto) => c.name)).toEqual([
      'Da empresa B',
    ]);
  });

  it('answers ids that cannot exist with 404 or 400, never 500', async () => {
    const { admin } = newCompany();
    expect((await svc.http.get('/whatsapp/99999999999', { token: admin })).status).toBe(404);
    expect((await svc.http.get('/whatsapp/0', { token: admin })).status).toBe(404);
    expect((await svc.http.get('/whatsapp/abc', { token: admin })).status).toBe(400);
  });
});

describe('connections: events', () => {
  it('publishes connection.updated after create and update, for the old default too, and connection.deleted', async () => {
    const { admin, companyId } = newCompany();
    const updated = new Collector<ConnectionChangedEvent>(svc.nc, `connection.updated.${companyId}.>`);
    const deleted = new Collector<ConnectionDeletedEvent>(svc.nc, `connection.deleted.${companyId}.>`);
    try {
      const a = await create(admin, { name: 'Eventos A' });
      await updated.waitFor((e) => e.data.connection.id === a.id && e.data.connection.isDefault);
      const b = await create(admin, { name: 'Eventos B', isDefault: true });
      // the old default's change is published too, so read models never see two defaults
      await updated.waitFor((e) => e.data.connection.id === a.id && !e.data.connection.isDefault);
      await updated.waitFor((e) => e.subject === `connection.updated.${companyId}.${b.id}` && e.data.connection.isDefault);
      await svc.http.put(`/whatsapp/${a.id}`, { token: admin, body: { name: 'Eventos A2' } });
      await updated.waitFor((e) => e.data.connection.name === 'Eventos A2');
      const ids = updated.items.map((e) => e.msgId);
      expect(new Set(ids).size).toBe(ids.length);
      await svc.http.delete(`/whatsapp/${b.id}`, { token: admin });
      const gone = await deleted.waitFor((e) => e.data.connectionId === b.id);
      expect(gone.data).toEqual({ companyId, connectionId: b.id });
      await updated.waitFor((e) => e.data.connection.id === a.id && e.data.connection.isDefault && e.data.connection.name === 'Eventos A2');
    } finally {
      updated.close();
      deleted.close();
    }
  });
});

/** An API token an admin may choose: 32 characters and more of letters, digits, - and _. */
function longToken(): string {
  return `tok-${randomBytes(24).toString('base64url')}`;
}

const SECRET_1 = `api-token-secret-1-${randomBytes(16).toString('hex')}`;
const AT_REST_1 = `api-token-at-rest-1-${randomBytes(16).toString('hex')}`;
const AT_REST_2 = `api-token-at-rest-2-${randomBytes(16).toString('hex')}`;
