import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createDataSource, runMigrations } from '@wa/database';
import { HttpClient, mediaForm, pngFile, randomIp, TEST_DATABASE_URL, waitFor } from '@wa/testing';
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authDatabase } from '../../services/auth/src/database/data-source.js';
import { ticketsDatabase } from '../../services/tickets/src/database/data-source.js';
import { whatsappDatabase } from '../../services/whatsapp-sessions/src/database/data-source.js';
import { sandboxPairingCode } from '../../services/whatsapp-sessions/src/runtime/providers/sandbox/sandbox.provider.js';
import { startMessagePath, stopProcesses, type ServiceProcess } from './processes.js';
import { Product } from './product.js';

/** The pace of the test's gateway: one send of a connection every 100 ms, 8 queued ahead at most. */
const SENDS_PER_MINUTE = 600;
const QUEUE_MAX = 8;

const running: ServiceProcess[] = [];
let http: HttpClient;
let product: Product;

beforeAll(async () => {
  for (const db of [authDatabase, ticketsDatabase, whatsappDatabase]) await runMigrations(db(TEST_DATABASE_URL));
  const services = await startMessagePath({
    // a send the phone refuses is given up after 2 tries (0.5 s apart) here
    'whatsapp-sessions': { OUTBOUND_MAX_ATTEMPTS: '2' },
    'messaging-gateway': { API_SENDS_PER_MINUTE: String(SENDS_PER_MINUTE), API_QUEUE_MAX: String(QUEUE_MAX) },
    // the instance's webhooks go to a receiver on loopback here
    tickets: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_MS: '200' },
  });
  running.push(...Object.values(services));
  const gateway = services['messaging-gateway'];
  http = new HttpClient(gateway.url, { 'x-forwarded-for': randomIp() });
  product = new Product(http, gateway.url);
});

afterAll(async () => {
  await stopProcesses(running);
});

/** A company with a connected sandbox connection whose API token is `apiToken`. */
async function companyWithApi(name: string) {
  const a = await product.newCompany(name);
  const queue = await http.post('/queue', { token: a.token, body: { name: 'Atendimento', color: `#${randomBytes(3).toString('hex')}` } });
  const conn = await product.connectedSandbox(a.token, queue.body.id);
  const apiToken = `api-${randomBytes(16).toString('hex')}`;
  expect((await http.put(`/whatsapp/${conn.id}`, { token: a.token, body: { token: apiToken } })).status).toBe(200);
  const outbox = async () =>
    (await http.get(`/whatsappsession/${conn.id}/sandbox/outbox`, { token: a.token })).body.items as Array<{
      waMessageId: string;
      to: string;
      body: string;
      media: unknown;
    }>;
  return { ...a, conn, apiToken, outbox };
}

const number = () => `5511${(900_000_000 + Math.floor(Math.random() * 99_999_999)).toString()}`;

async function authDb<T>(work: (q: (sql: string, params?: unknown[]) => Promise<unknown>) => Promise<T>): Promise<T> {
  const ds = createDataSource(authDatabase(TEST_DATABASE_URL, 1));
  await ds.initialize();
  try {
    return await work((sql, params) => ds.query(sql, params));
  } finally {
    await ds.destroy();
  }
}

describe('the public messages API (POST /api/messages/send with a connection token)', () => {
  it('a JSON send is stored and queued (202), reaches the phone and the ticket live, and its id tracks to delivered and read', async () => {
    const a = await companyWithApi('Api Loja');
    const live = await product.socketOf(a.token);
    const to = number();
    const res = await http.post('/api/messages/send', {
      token: a.apiToken,
      body: { number: to, body: 'Seu pedido #123 saiu para entrega' },
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ number: to, body: 'Seu pedido #123 saiu para entrega', state: 'queued', ack: 0 });
    const { id, ticketId } = res.body as { id: number; ticketId: number };
    await waitFor(async () => (await a.outbox()).find((i) => i.to === to && i.body === 'Seu pedido #123 saiu para entrega'));
    // the message is in the contact's ticket on that connection, and announced live
    const messages = (await http.get(`/messages/${ticketId}`, { token: a.token })).body.messages as Array<{
      id: number;
      body: string;
      fromMe: boolean;
    }>;
    expect(messages.find((m) => m.id === id)).toMatchObject({ body: 'Seu pedido #123 saiu para entrega', fromMe: true });
    await waitFor(async () => live.events.find((e) => e.name === `company-${a.user.companyId}-appMessage` && e.payload.message?.id === id));
    // the sandbox phone reports it sent, delivered, then read
    const read = await waitFor(async () => {
      const s = (await http.get(`/api/messages/${id}`, { token: a.apiToken })).body;
      return s.state === 'read' ? s : undefined;
    });
    expect(read).toMatchObject({ id, ticketId, number: to, ack: 4 });
    // a second send to the same number reuses the ticket
    const again = await http.post('/api/messages/send', { token: a.apiToken, body: { number: to, body: 'Entregue!' } });
    expect(again.body.ticketId).toBe(ticketId);
    live.socket.close();
  });

  it('a multipart image send reaches the phone with its caption; bad input is refused and sends nothing', async () => {
    const a = await companyWithApi('Api Midia');
    const to = number();
    const form = mediaForm([{ field: 'medias', name: 'nota.png', data: pngFile() }], { number: to, body: 'Sua nota fiscal' });
    const res = await http.post('/api/messages/send', { token: a.apiToken, form });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ mediaType: 'image', state: 'queued' });
    const sent = await waitFor(async () => (await a.outbox()).find((i) => i.to === to));
    expect(sent).toMatchObject({ body: 'Sua nota fiscal', media: { mimetype: 'image/png', fileName: 'nota.png' } });

    const before = (await a.outbox()).length;
    const bad: Array<[string, Parameters<HttpClient['post']>[1]]> = [
      ['no number', { token: a.apiToken, body: { body: 'oi' } }],
      ['letters in the number', { token: a.apiToken, body: { number: '55119abc87654', body: 'oi' } }],
      ['an empty body without media', { token: a.apiToken, body: { number: to, body: '   ' } }],
      [
        'a 20 MB file',
        {
          token: a.apiToken,
          form: mediaForm([{ field: 'medias', name: 'grande.png', data: pngFile({ padTo: 20 * 1024 * 1024 }) }], {
            number: to,
            body: 'grande',
          }),
        },
      ],
      [
        'a file that is not what it says',
        {
          token: a.apiToken,
          form: mediaForm([{ field: 'medias', name: 'falso.png', data: Buffer.from('%PDF-1.4 nada'), type: 'image/png' }], {
            number: to,
            body: 'falso',
          }),
        },
      ],
    ];
    for (const [what, opts] of bad) {
      const r = await http.post('/api/messages/send', opts);
      expect({ what, status: r.status >= 400 && r.status < 500, json: typeof r.body === 'object' }).toEqual({
        what,
        status: true,
        json: true,
      });
    }
    const noNumber = await http.post('/api/messages/send', { token: a.apiToken, body: { body: 'oi' } });
    expect({ status: noNumber.status, error: noNumber.body.error }).toEqual({ status: 400, error: 'ERR_VALIDATION' });
    expect(JSON.stringify(noNumber.body)).toContain('Obrigatório');
    await new Promise((r) => setTimeout(r, 1000));
    expect((await a.outbox()).length).toBe(before);
  });

  it("a send the phone cannot make is given up after its tries: the answer's id shows failed with the reason", async () => {
    const a = await companyWithApi('Api Falha');
    // a US number: valid, but not on the sandbox phone's WhatsApp (12 or 13 digits only)
    const res = await http.post('/api/messages/send', { token: a.apiToken, body: { number: '+1 415 555 0123', body: 'não vai chegar' } });
    expect(res.status).toBe(202);
    const failed = await waitFor(
      async () => {
        const s = (await http.get(`/api/messages/${res.body.id}`, { token: a.apiToken })).body;
        return s.state === 'failed' ? s : undefined;
      },
      { timeoutMs: 20_000 },
    );
    expect(failed).toMatchObject({ ack: 0, number: '14155550123' });
    expect(failed.reason).toContain('is not on WhatsApp');
    // the console shows it too
    const messages = (await http.get(`/messages/${res.body.ticketId}`, { token: a.token })).body.messages as Array<{
      id: number;
      failedReason: string | null;
    }>;
    expect(messages.find((m) => m.id === res.body.id)?.failedReason).toContain('is not on WhatsApp');
    expect((await a.outbox()).length).toBe(0);
  });

  it('the same Idempotency-Key twice answers the first call and sends once', async () => {
    const a = await companyWithApi('Api Idem');
    const to = number();
    const call = () =>
      http.post('/api/messages/send', {
        token: a.apiToken,
        headers: { 'idempotency-key': `pedido-${to}` },
        body: { number: to, body: 'Pagamento confirmado' },
      });
    const [first, second] = await Promise.all([call(), call()]);
    const third = await call();
    expect([first.status, second.status, third.status]).toEqual([202, 202, 202]);
    expect(second.body.id).toBe(first.body.id);
    expect(third.body.id).toBe(first.body.id);
    await waitFor(async () => (await a.outbox()).some((i) => i.to === to));
    await new Promise((r) => setTimeout(r, 1000));
    expect((await a.outbox()).filter((i) => i.to === to)).toHaveLength(1);
  });

  it("tokens stay in their lane: another company's token reads nothing here, a user's token is refused on the API, a connection's on the console", async () => {
    const a = await companyWithApi('Api Dona');
    const b = await companyWithApi('Api Outra');
    const sent = await http.post('/api/messages/send', { token: a.apiToken, body: { number: number(), body: 'só da loja A' } });
    expect(sent.status).toBe(202);
    expect((await http.get(`/api/messages/${sent.body.id}`, { token: b.apiToken })).status).toBe(404);
    expect((await http.get(`/api/messages/${sent.body.id}`, { token: a.apiToken })).status).toBe(200);
    for (const token of [a.token, 'not-a-token', undefined]) {
      const r = await http.post('/api/messages/send', { token, body: { number: number(), body: 'oi' } });
      expect({ token: token?.slice(0, 10), status: r.status, error: r.body.error }).toEqual({
        token: token?.slice(0, 10),
        status: 401,
        error: 'ERR_UNAUTHENTICATED',
      });
    }
    const console = await http.get('/tickets', { token: a.apiToken });
    expect([401, 403]).toContain(console.status);
  });

  it('a burst is paced (one send per 100 ms here) and queued up to the bound; past it 429 with Retry-After', async () => {
    const a = await companyWithApi('Api Rajada');
    const to = number();
    // all at once, as a client's burst comes
    const answers = await Promise.all(
      Array.from({ length: QUEUE_MAX + 6 }, (_, i) =>
        http.post('/api/messages/send', { token: a.apiToken, body: { number: to, body: `rajada ${i}` } }),
      ),
    );
    const accepted = answers.filter((r) => r.status === 202);
    const refused = answers.filter((r) => r.status === 429);
    expect(accepted.length).toBeGreaterThanOrEqual(QUEUE_MAX);
    expect(refused.length).toBeGreaterThan(0);
    expect(accepted.length + refused.length).toBe(answers.length);
    expect(refused[0]?.body.error).toBe('ERR_TOO_MANY_ATTEMPTS');
    expect(Number(refused[0]?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // the accepted ones all go, each once, never two closer than the pace's interval
    await waitFor(async () => (await a.outbox()).filter((i) => i.to === to).length === accepted.length, { timeoutMs: 20_000 });
    const page = (await http.get(`/whatsappsession/${a.conn.id}/sandbox/outbox`, { token: a.token })).body.items as Array<{
      to: string;
      body: string;
      sentAt: string;
    }>;
    const ours = page.filter((i) => i.to === to);
    expect(ours.map((i) => i.body).sort()).toEqual(accepted.map((r) => r.body.body as string).sort());
    const times = ours.map((i) => Date.parse(i.sentAt)).sort((x, y) => x - y);
    const interval = 60_000 / SENDS_PER_MINUTE;
    // the phone's clock stamps in ms; allow it a few ms of rounding
    for (let i = 1; i < times.length; i++) expect((times[i] as number) - (times[i - 1] as number)).toBeGreaterThanOrEqual(interval - 5);
  });

  it("an agent's reply on the same connection goes out at once, not behind the API's paced queue", async () => {
    const a = await companyWithApi('Api e Agente');
    const live = await product.socketOf(a.token);
    live.socket.emit('joinTickets', 'pending');
    const customer = number();
    expect(
      (
        await http.post(`/whatsappsession/${a.conn.id}/sandbox/inbound`, {
          token: a.token,
          body: { from: customer, name: 'Rita', body: 'Oi' },
        })
      ).status,
    ).toBeLessThan(300);
    const seen = await waitFor(async () =>
      live.events.find((e) => e.name === `company-${a.user.companyId}-ticket` && e.payload.ticket?.contact?.number === customer),
    );
    const ticketId = seen.payload.ticket.id as number;
    live.socket.disconnect();
    expect((await http.put(`/tickets/${ticketId}`, { token: a.token, body: { status: 'open' } })).status).toBe(200);
    // a full queue of API sends, one every 100 ms: the last one goes out 700 ms or more from now
    const to = number();
    const answers = await Promise.all(
      Array.from({ length: QUEUE_MAX }, (_, i) =>
        http.post('/api/messages/send', { token: a.apiToken, body: { number: to, body: `fila ${i}` } }),
      ),
    );
    const accepted = answers.filter((r) => r.status === 202).length;
    expect(accepted).toBeGreaterThanOrEqual(QUEUE_MAX - 1);
    type Sent = { to: string; body: string; sentAt: string };
    const sent = async () => (await http.get(`/whatsappsession/${a.conn.id}/sandbox/outbox`, { token: a.token })).body.items as Sent[];
    // the paced sends are going out (the rest wait for their slots, 500 ms or more): now the agent answers
    await waitFor(async () => (await sent()).filter((i) => i.to === to).length >= 2, { timeoutMs: 10_000 });
    expect((await http.post(`/messages/${ticketId}`, { token: a.token, body: { body: 'Já te atendo!' } })).status).toBe(201);
    const all = await waitFor(
      async () => {
        const items = await sent();
        return items.filter((i) => i.to === to).length === accepted && items.some((i) => i.to === customer) ? items : undefined;
      },
      { timeoutMs: 20_000 },
    );
    const replyAt = Date.parse((all.find((i) => i.to === customer) as Sent).sentAt);
    const lastApiAt = Math.max(...all.filter((i) => i.to === to).map((i) => Date.parse(i.sentAt)));
    expect(replyAt).toBeLessThan(lastApiAt);
  });

  it('answers alike under its versioned paths (/api/v1/messages): a send, its status by either path; 401 without a good token, 404 off its paths', async () => {
    const a = await companyWithApi('Api V1');
    const to = number();
    const sent = await http.post('/api/v1/messages/send', { token: a.apiToken, body: { number: to, body: 'Pedido confirmado (v1)' } });
    expect(sent.status).toBe(202);
    expect(sent.body).toMatchObject({ number: to, body: 'Pedido confirmado (v1)', state: 'queued', ack: 0 });
    const id = (sent.body as { id: number }).id;
    await waitFor(async () => (await a.outbox()).some((i) => i.to === to && i.body === 'Pedido confirmado (v1)'));
    // the same message by either path: the alias and the versioned one are one API
    await waitFor(async () => (await http.get(`/api/v1/messages/${id}`, { token: a.apiToken })).body.ack >= 1);
    const v1 = await http.get(`/api/v1/messages/${id}`, { token: a.apiToken });
    const alias = await http.get(`/api/messages/${id}`, { token: a.apiToken });
    expect(v1.status).toBe(200);
    expect(v1.body).toMatchObject({ id, number: to, ticketId: (sent.body as { ticketId: number }).ticketId });
    expect(alias.body).toEqual(v1.body);
    // no token, a wrong one, a user's: 401 with the spec's body; nothing sent
    for (const token of [undefined, 'not-a-token', a.token]) {
      const r = await http.post('/api/v1/messages/send', { token, body: { number: number(), body: 'x' } });
      expect({ status: r.status, error: r.body.error }).toEqual({ status: 401, error: 'ERR_UNAUTHENTICATED' });
    }
    for (const path of ['/api/v1/messages/send/', '/api/v1/messages/SEND', '/api/v1/messages/other', '/api/v2/messages/send']) {
      const r = await http.post(path, { token: a.apiToken, body: { number: number(), body: 'x' } });
      expect([path, r.status]).toEqual([path, 404]);
    }
    expect((await a.outbox()).filter((i) => i.body === 'x')).toEqual([]);
  });

  it('the OpenAPI at /docs documents the public API with its answers, and no internal route', async () => {
    // straight to the gateway, as an operator (a proxied call is not answered there)
    const doc = (await new HttpClient(product.gatewayUrl).get('/docs/openapi.json')).body as {
      paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
    };
    expect(Object.keys(doc.paths['/api/messages/send']?.post?.responses ?? {}).sort()).toEqual(['202', '400', '401', '403', '429']);
    expect(doc.paths['/api/messages/{id}']?.get).toBeDefined();
    // the versioned paths, described alike
    expect(Object.keys(doc.paths['/api/v1/messages/send']?.post?.responses ?? {}).sort()).toEqual(['202', '400', '401', '403', '429']);
    expect(doc.paths['/api/v1/messages/{id}']?.get).toBeDefined();
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/internal'))).toEqual([]);
  });

  it("a plan without the external API answers 403 with the spec's text; a disabled company 401", async () => {
    const noPlan = await companyWithApi('Api Sem Plano');
    await authDb(async (q) => {
      const [plan] = (await q(
        // an id of its own, far from billing's (auth's copy takes billing's ids)
        `INSERT INTO auth.plans (id, name, users, connections, queues, value, "useExternalApi", "isPublic", "trialDays", "updatedAt") VALUES ($1, $2, 10, 10, 10, 0, false, false, 0, now()) RETURNING id`,
        [900_000 + Math.floor(Math.random() * 99_999), `Sem API ${randomBytes(3).toString('hex')}`],
      )) as Array<{ id: number }>;
      await q(`UPDATE auth.companies SET "planId" = $1 WHERE id = $2`, [plan?.id, noPlan.user.companyId]);
    });
    const r = await http.post('/api/messages/send', { token: noPlan.apiToken, body: { number: number(), body: 'oi' } });
    expect({ status: r.status, error: r.body.error, message: r.body.message }).toEqual({
      status: 403,
      error: 'ERR_NO_PERMISSION',
      message: 'Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.',
    });

    const disabled = await companyWithApi('Api Desativada');
    await authDb((q) => q(`UPDATE auth.companies SET status = false WHERE id = $1`, [disabled.user.companyId]));
    const d = await http.post('/api/messages/send', { token: disabled.apiToken, body: { number: number(), body: 'oi' } });
    expect({ status: d.status, error: d.body.error }).toEqual({ status: 401, error: 'ERR_UNAUTHENTICATED' });
    expect((await noPlan.outbox()).length + (await disabled.outbox()).length).toBe(0);
  });
});

/** A webhook receiver as an integrator runs it, on loopback: keeps every delivery with its headers. */
async function webhookReceiver() {
  const got: Array<{ headers: Record<string, string>; raw: string; body: any }> = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      got.push({ headers: req.headers as Record<string, string>, raw, body: JSON.parse(raw) });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    got,
    stop: () => new Promise((r) => server.close(r)),
  };
}

describe('the public instance API (/api/v1/instance with a connection token, issue 45 §3)', () => {
  it("shows the token's connection, its QR code and a pairing code while it waits for a pairing; restarts and logs it out; the webhook hears each status and QR code, signed", async () => {
    const a = await companyWithApi('Api Instancia');
    const receiver = await webhookReceiver();
    const secret = `segredo-${randomBytes(8).toString('hex')}`;
    try {
      const hook = await http.put('/webhook-settings', {
        token: a.token,
        body: { url: receiver.url, secret, events: ['connection.status', 'connection.qrcode'] },
      });
      expect(hook.status).toBe(200);
      // no token, a wrong one, a user's: 401 on every route, nothing done
      for (const token of [undefined, 'not-a-token', a.token]) {
        for (const [method, path] of [
          ['GET', '/api/v1/instance'],
          ['GET', '/api/v1/instance/qrcode'],
          ['POST', '/api/v1/instance/logout'],
        ] as const) {
          const r = method === 'GET' ? await http.get(path, { token }) : await http.post(path, { token });
          expect({ path, status: r.status, error: r.body.error }).toEqual({ path, status: 401, error: 'ERR_UNAUTHENTICATED' });
        }
      }
      const state = async () => (await http.get('/api/v1/instance', { token: a.apiToken })).body;
      const up = await http.get('/api/v1/instance', { token: a.apiToken });
      expect(up.status).toBe(200);
      expect(up.body).toEqual({
        id: a.conn.id,
        name: expect.stringMatching(/^Sandbox /),
        status: 'CONNECTED',
        number: up.body.number ?? null,
        qrcode: null,
        updatedAt: expect.any(String),
      });
      // paired: no QR to scan, no pairing code
      const noQr = await http.get('/api/v1/instance/qrcode', { token: a.apiToken });
      expect({ status: noQr.status, error: noQr.body.error }).toEqual({ status: 409, error: 'ERR_WAPP_ALREADY_CONNECTED' });
      const noCode = await http.post('/api/v1/instance/pairing-code', { token: a.apiToken, body: { number: '5511987650002' } });
      expect({ status: noCode.status, error: noCode.body.error }).toEqual({ status: 409, error: 'ERR_WAPP_ALREADY_CONNECTED' });

      // the phone unlinks it (the sandbox's hook): the session waits for a pairing, with a QR code
      expect((await http.post(`/whatsappsession/${a.conn.id}/sandbox/unpair`, { token: a.token })).status).toBe(200);
      await waitFor(async () => (await state()).status === 'qrcode');
      const qr = await http.get('/api/v1/instance/qrcode', { token: a.apiToken });
      expect(qr.status).toBe(200);
      expect(qr.body).toEqual({ status: 'qrcode', qrcode: expect.stringMatching(/\S/) });
      expect((await state()).qrcode).toBe(qr.body.qrcode);
      // a number that is not one is refused; the right one gets the code the phone takes, and it pairs with that number
      const bad = await http.post('/api/v1/instance/pairing-code', { token: a.apiToken, body: { number: '(11) 9876' } });
      expect({ status: bad.status, error: bad.body.error }).toEqual({ status: 400, error: 'ERR_VALIDATION' });
      const phone = '5511987650003';
      const code = await http.post('/api/v1/instance/pairing-code', { token: a.apiToken, body: { number: phone } });
      expect(code.status).toBe(200);
      const expected = sandboxPairingCode(a.conn.id, phone);
      expect(code.body).toEqual({ pairingCode: `${expected.slice(0, 4)}-${expected.slice(4)}` });
      await waitFor(async () => (await state()).status === 'CONNECTED');
      expect(await state()).toMatchObject({ status: 'CONNECTED', number: phone, qrcode: null });

      // logout: the phone unlinked, DISCONNECTED as the console's disconnect leaves it
      const out = await http.post('/api/v1/instance/logout', { token: a.apiToken });
      expect({ status: out.status, body: out.body }).toEqual({ status: 202, body: { message: 'Session disconnected.' } });
      await waitFor(async () => (await state()).status === 'DISCONNECTED');
      // restart: the session starts again (the sandbox phone pairs at once)
      const restart = await http.post('/api/v1/instance/restart', { token: a.apiToken });
      expect({ status: restart.status, body: restart.body }).toEqual({ status: 202, body: { message: 'Restarting the session.' } });
      await waitFor(async () => (await state()).status === 'CONNECTED');
      // a restart of a session that is up closes and opens it again: connected again, changed since
      const before = (await state()).updatedAt as string;
      expect((await http.post('/api/v1/instance/restart', { token: a.apiToken })).status).toBe(202);
      await waitFor(async () => {
        const now = await state();
        return now.status === 'CONNECTED' && Date.parse(now.updatedAt) > Date.parse(before);
      });

      // the webhook heard it all, in order, signed with the company's secret
      const statuses = () => receiver.got.filter((g) => g.body.event === 'connection.status').map((g) => g.body.data.status);
      await waitFor(async () => statuses().filter((s) => s === 'CONNECTED').length >= 3);
      // each change told once, in the order it happened (OPENING between them as the session opens: the restart of a
      // session that was up went through it, so its CONNECTED is told again)
      const told = statuses();
      expect(told.filter((st) => st !== 'OPENING')).toEqual(['qrcode', 'PAIRING', 'CONNECTED', 'DISCONNECTED', 'CONNECTED', 'CONNECTED']);
      expect(told.every((st, i) => st !== told[i - 1])).toBe(true);
      const qrs = receiver.got.filter((g) => g.body.event === 'connection.qrcode');
      expect(qrs[0]?.body).toMatchObject({
        event: 'connection.qrcode',
        companyId: a.user.companyId,
        ticketId: null,
        data: { connectionId: a.conn.id, qrcode: qr.body.qrcode },
      });
      const paired = receiver.got.find((g) => g.body.event === 'connection.status' && g.body.data.status === 'CONNECTED');
      expect(paired?.body.data).toEqual({ connectionId: a.conn.id, name: up.body.name, status: 'CONNECTED', number: phone });
      for (const g of receiver.got) {
        const signature = createHmac('sha256', secret).update(`${g.headers['x-webhook-timestamp']}.${g.raw}`).digest('hex');
        expect(g.headers['x-webhook-signature']).toBe(`sha256=${signature}`);
      }
    } finally {
      await http.delete('/webhook-settings', { token: a.token });
      await receiver.stop();
    }
  });

  it("is described in the OpenAPI with bearer security; a plan without the external API answers 403 with the spec's text", async () => {
    const doc = (await new HttpClient(product.gatewayUrl).get('/docs/openapi.json')).body as {
      paths: Record<string, Record<string, { responses?: Record<string, unknown>; security?: unknown[] }>>;
    };
    expect(Object.keys(doc.paths['/api/v1/instance']?.get?.responses ?? {}).sort()).toEqual(['200', '400', '401', '403', '404']);
    expect(Object.keys(doc.paths['/api/v1/instance/qrcode']?.get?.responses ?? {}).sort()).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '409',
    ]);
    expect(doc.paths['/api/v1/instance/pairing-code']?.post?.responses).toHaveProperty('200');
    expect(doc.paths['/api/v1/instance/restart']?.post?.responses).toHaveProperty('202');
    expect(doc.paths['/api/v1/instance/logout']?.post?.security).toEqual([{ connectionToken: [] }]);

    const noPlan = await companyWithApi('Api Instancia Sem Plano');
    await authDb(async (q) => {
      const [plan] = (await q(
        `INSERT INTO auth.plans (id, name, users, connections, queues, value, "useExternalApi", "isPublic", "trialDays", "updatedAt") VALUES ($1, $2, 10, 10, 10, 0, false, false, 0, now()) RETURNING id`,
        [900_000 + Math.floor(Math.random() * 99_999), `Sem API ${randomBytes(3).toString('hex')}`],
      )) as Array<{ id: number }>;
      await q(`UPDATE auth.companies SET "planId" = $1 WHERE id = $2`, [plan?.id, noPlan.user.companyId]);
    });
    for (const r of [
      await http.get('/api/v1/instance', { token: noPlan.apiToken }),
      await http.post('/api/v1/instance/logout', { token: noPlan.apiToken }),
    ]) {
      expect({ status: r.status, error: r.body.error, message: r.body.message }).toEqual({
        status: 403,
        error: 'ERR_NO_PERMISSION',
        message: 'Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.',
      });
    }
    // refused before anything was done: the session is still up
    expect((await http.get(`/whatsapp/${noPlan.conn.id}`, { token: noPlan.token })).body.status).toBe('CONNECTED');
  });
});
