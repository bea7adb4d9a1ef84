import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { signAccessToken } from '@wa/auth';
import { createDataSource, runMigrations } from '@wa/database';
import { HttpClient, mediaForm, pdfFile, pngFile, randomIp, TEST_DATABASE_URL, TEST_JWT_SECRET, waitFor } from '@wa/testing';
import { createHash, createVerify, generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authDatabase } from '../../services/auth/src/database/data-source.js';
import { ticketsDatabase } from '../../services/tickets/src/database/data-source.js';
import { whatsappDatabase } from '../../services/whatsapp-sessions/src/database/data-source.js';
import { startMessagePath, stopProcesses, type ServiceProcess } from './processes.js';
import { Product } from './product.js';

/**
 * The bot in the inbound path (issue 15), through the gateway and the sandbox phone against the real
 * servers: the menus, the hand-over past the retry limit, out-of-hours once per period, idle expiry and
 * the rating.
 */
const running: ServiceProcess[] = [];
let http: HttpClient;
let product: Product;
let tickets: ReturnType<typeof createDataSource>;

/**
 * An OpenAI-compatible peer (POST /v1/chat/completions), as a test's own HTTP server: it records each request
 * and answers by the customer's last words: `quebrado` → 500, `demora` → never answers, otherwise a reply
 * that names the last user message.
 */
const modelCalls: Array<{ auth: string | undefined; body: any }> = [];
const model = createServer((req, res) => {
  let raw = '';
  req.on('data', (c) => (raw += c));
  req.on('end', () => {
    const body = JSON.parse(raw || '{}');
    modelCalls.push({ auth: req.headers.authorization, body });
    const last = [...(body.messages ?? [])].reverse().find((m: { role: string }) => m.role === 'user')?.content ?? '';
    if (req.url !== '/v1/chat/completions') return void res.writeHead(404).end();
    if (last.includes('demora')) return; // hangs: the client's timeout decides
    if (last.includes('quebrado'))
      return void res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'boom' } }));
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 1,
        model: body.model,
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: `IA: você disse "${last}"` } }],
      }),
    );
  });
});

/**
 * Outside flows as the test's own HTTP servers: a webhook peer (JSON `reply`; `transfere` → transfer, `falha`
 * → 500, `trava` → never answers), an n8n-style peer (two `replies`) and a Typebot-compatible chat API.
 */
const flowCalls: Array<{ url: string | undefined; body: any }> = [];
const dialogflowCalls: Array<{ project: string; session: string; auth: string | undefined; body: any }> = [];
/** The service account of the Dialogflow integration: the peer checks the client's token with its public key. */
const serviceAccount = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});
const flows = createServer((req, res) => {
  let raw = '';
  req.on('data', (c) => (raw += c));
  req.on('end', () => {
    const body = JSON.parse(raw || '{}');
    flowCalls.push({ url: req.url, body });
    const json = (status: number, value: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    const said: string = body.message?.body ?? body.message?.text ?? '';
    if (req.url === '/webhook') {
      if (said.includes('trava')) return;
      if (said.includes('falha')) return void json(500, { error: 'boom' });
      if (said.includes('transfere')) return void json(200, { transfer: true });
      return void json(200, { reply: `Webhook: recebi "${said}" de ${body.contact?.name}` });
    }
    if (req.url === '/n8n') return void json(200, { replies: [`n8n 1: ${said}`, `n8n 2: ticket ${body.ticket?.id}`] });
    // Dialogflow ES's REST detectIntent, as the official client calls it
    const df = /^\/v2\/projects\/([^/]+)\/agent\/sessions\/([^/:]+):detectIntent$/.exec((req.url ?? '').split('?')[0] as string);
    if (df) {
      const query: string = body.queryInput?.text?.text ?? '';
      dialogflowCalls.push({ project: df[1] as string, session: df[2] as string, auth: req.headers.authorization, body });
      if (query.includes('falha')) return void json(503, { error: { code: 503, message: 'unavailable', status: 'UNAVAILABLE' } });
      const end = query.includes('tchau');
      return void json(200, {
        responseId: `r-${dialogflowCalls.length}`,
        queryResult: {
          queryText: query,
          languageCode: body.queryInput?.text?.languageCode,
          fulfillmentMessages: [{ text: { text: [end ? 'Até logo!' : `Dialogflow: entendi "${query}"`] } }],
          intent: { displayName: end ? 'Despedida' : 'Padrão', endInteraction: end },
        },
      });
    }
    const rich = (text: string) => ({ type: 'text', content: { type: 'richText', richText: [{ type: 'p', children: [{ text }] }] } });
    if (req.url === '/typebot/api/v1/typebots/loja-bot/startChat')
      return void json(200, { sessionId: `sess-${flowCalls.length}`, messages: [rich('Olá! Qual é o seu nome?')] });
    const cont = /^\/typebot\/api\/v1\/sessions\/([^/]+)\/continueChat$/.exec(req.url ?? '');
    if (cont) return void json(200, { messages: said === 'mudo' ? [] : [rich(`Prazer, ${said}!`), rich(`(sessão ${cont[1]})`)] });
    json(404, { error: 'not found' });
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => flows.listen(0, '127.0.0.1', resolve));
  const modelUrl = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;
  for (const db of [authDatabase, ticketsDatabase, whatsappDatabase]) await runMigrations(db(TEST_DATABASE_URL));
  // idle tickets are looked for every second here (every minute by default)
  // the test's peers listen on loopback: this operator allows private addresses here (off by default)
  const services = await startMessagePath({
    tickets: {
      TICKET_EXPIRY_SWEEP_MS: '1000',
      OPENAI_BASE_URL: modelUrl,
      OPENAI_TIMEOUT_MS: '1000',
      OPENAI_MODEL: 'modelo-teste',
      INTEGRATION_TIMEOUT_MS: '1000',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      // the Dialogflow stand-in: the test's own server (Google's endpoint by default)
      DIALOGFLOW_API_ENDPOINT: `http://127.0.0.1:${(flows.address() as AddressInfo).port}`,
    },
  });
  running.push(...Object.values(services));
  const gateway = services['messaging-gateway'];
  http = new HttpClient(gateway.url, { 'x-forwarded-for': randomIp() });
  product = new Product(http, gateway.url);
  tickets = createDataSource(ticketsDatabase(TEST_DATABASE_URL, 1));
  await tickets.initialize();
});

afterAll(async () => {
  for (const server of [model, flows]) {
    server.closeAllConnections();
    server.close();
  }
  await tickets?.destroy();
  await stopProcesses(running);
});

const color = () => `#${randomBytes(3).toString('hex')}`;
const number = () => `5511${(900_000_000 + Math.floor(Math.random() * 99_999_999)).toString()}`;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Company = Awaited<ReturnType<Product['newCompany']>>;

let order = 0;
/** A queue; the menus list queues by orderQueue (then by name), so each is numbered in the order made here. */
async function newQueue(a: Company, name: string, greetingMessage = '') {
  const res = await http.post('/queue', { token: a.token, body: { name, color: color(), greetingMessage, orderQueue: ++order } });
  expect(res.status).toBe(201);
  return res.body as { id: number; name: string };
}

async function newOption(a: Company, body: { queueId: number; parentId?: number | null; option: string; title: string; message: string }) {
  const res = await http.post('/queue-options', { token: a.token, body });
  expect(res.status).toBe(201);
  return res.body as { id: number };
}

/** A connected sandbox connection on these queues, with these connection settings. */
async function botConnection(a: Company, queueIds: number[], settings: Record<string, unknown>) {
  const conn = await product.connectedSandbox(a.token, queueIds[0] as number);
  const res = await http.put(`/whatsapp/${conn.id}`, { token: a.token, body: { queueIds, ...settings } });
  expect(res.status).toBe(200);
  // tickets hears of the change through the bus: wait until its copy has it
  await waitFor(async () => {
    const [row] = await tickets.query(`SELECT "queueIds", bot FROM tickets.connections WHERE id = $1`, [conn.id]);
    return row &&
      row.queueIds.length === queueIds.length &&
      Object.entries(settings).every(([k, v]) => k === 'greetingMessage' || row.bot[k] === v)
      ? row
      : undefined;
  });
  return conn;
}

/** The customer `from` writes; answers the texts the phone got for them, waiting until there are `expect` of them. */
function customer(a: Company, connId: number, from: string) {
  // the phone lists what it got newest first: here, in the order it came
  const outbox = async () =>
    (
      (await http.get(`/whatsappsession/${connId}/sandbox/outbox`, { token: a.token })).body.items as Array<{
        to: string;
        body: string;
        kind: string;
        media: { mimetype: string; fileName: string; size: number; sha256: string } | null;
      }>
    )
      .filter((i) => i.to === from && i.kind === 'send')
      .reverse();
  return {
    say: async (body: string) =>
      expect(
        (await http.post(`/whatsappsession/${connId}/sandbox/inbound`, { token: a.token, body: { from, name: 'Maria Souza', body } }))
          .status,
      ).toBeLessThan(300),
    got: async (count: number) => waitFor(async () => ((await outbox()).length >= count ? (await outbox()).map((i) => i.body) : undefined)),
    outbox,
  };
}

async function ticketOf(a: Company, from: string, status = 'pending') {
  return waitFor(async () => {
    const [row] = await tickets.query(
      `SELECT t.id, t."queueId", t.chatbot, t.status, t.rating, t."botState" FROM tickets.tickets t JOIN tickets.contacts c ON c.id = t."contactId"
        WHERE c."companyId" = $1 AND c.number = $2 AND t.status = $3 ORDER BY t.id DESC LIMIT 1`,
      [a.user.companyId, from, status],
    );
    return row as
      | { id: number; queueId: number | null; chatbot: boolean; status: string; rating: number | null; botState: { step: string } | null }
      | undefined;
  });
}

/** Sets a company setting and waits until tickets' copy has it. */
async function setting(a: Company, key: string, value: string) {
  expect((await http.put(`/settings/${key}`, { token: a.token, body: { value } })).status).toBe(200);
  await waitFor(
    async () =>
      (
        await tickets.query(`SELECT 1 FROM tickets.company_settings WHERE "companyId" = $1 AND key = $2 AND value = $3`, [
          a.user.companyId,
          key,
          value,
        ])
      ).length > 0,
  );
}

describe('the bot', () => {
  it('three queues and a two-level tree: the customer picks 2, then 1, and the ticket lands in that queue, live for its agents only', async () => {
    const a = await product.newCompany('Bot Menu');
    const sales = await newQueue(a, 'Vendas', 'Vendas: como ajudar?');
    const support = await newQueue(a, 'Suporte', 'Suporte técnico');
    const billing = await newQueue(a, 'Financeiro');
    const internet = await newOption(a, { queueId: support.id, option: '1', title: 'Internet', message: 'Sobre a internet:' });
    await newOption(a, {
      queueId: support.id,
      parentId: internet.id,
      option: '1',
      title: 'Lenta',
      message: 'Reinicie o modem, {{firstName}}.',
    });
    await newOption(a, { queueId: support.id, parentId: internet.id, option: '2', title: 'Caiu', message: 'Verificando a rede.' });
    await newOption(a, { queueId: support.id, option: '2', title: 'Telefone', message: 'Um técnico vai ligar.' });
    const conn = await botConnection(a, [sales.id, support.id, billing.id], { greetingMessage: 'Olá {{firstName}}! Escolha um setor:' });
    const supportAgent = await product.agentOf(a.token, [support.id]);
    const salesAgent = await product.agentOf(a.token, [sales.id]);
    const liveSupport = await product.socketOf(supportAgent.token);
    const liveSales = await product.socketOf(salesAgent.token);
    for (const live of [liveSupport, liveSales]) {
      live.socket.emit('joinTickets', 'pending');
      live.socket.emit('joinNotification');
    }

    const from = number();
    const maria = customer(a, conn.id, from);
    await maria.say('oi');
    expect((await maria.got(1))[0]).toBe('Olá Maria! Escolha um setor:\n\n*[ 1 ]* - Vendas\n*[ 2 ]* - Suporte\n*[ 3 ]* - Financeiro');
    const ticket = await ticketOf(a, from);
    expect(ticket).toMatchObject({ queueId: null, chatbot: true });

    await maria.say('2');
    expect((await maria.got(2))[1]).toBe(
      'Suporte técnico\n\n*[ 1 ]* - Internet\n*[ 2 ]* - Telefone\n\n*[ 0 ]* - Menu anterior\n*[ # ]* - Menu inicial',
    );
    await maria.say('1');
    expect((await maria.got(3))[2]).toContain('Sobre a internet:\n\n*[ 1 ]* - Lenta\n*[ 2 ]* - Caiu');
    await maria.say('1');
    expect((await maria.got(4))[3]).toBe('Reinicie o modem, Maria.');
    expect(await ticketOf(a, from)).toMatchObject({ id: ticket.id, queueId: support.id, chatbot: false });

    // live: the support agent sees it in their queue; the sales agent hears nothing of it once it has a queue
    // (before, it was a ticket of no queue, which agents who see those may see)
    const seen = await waitFor(async () =>
      liveSupport.events.find(
        (e) =>
          e.name === `company-${a.user.companyId}-ticket` && e.payload.ticket?.id === ticket.id && e.payload.ticket.queueId === support.id,
      ),
    );
    expect(seen.payload.ticket).toMatchObject({ status: 'pending', queue: { id: support.id, name: 'Suporte' } });
    await pause(300);
    expect(liveSales.events.filter((e) => e.payload?.ticket?.id === ticket.id && e.payload.ticket.queueId !== null)).toEqual([]);
    expect(
      liveSupport.events.filter((e) => e.payload?.ticket?.id === ticket.id && e.payload.ticket.queueId === support.id).length,
    ).toBeGreaterThan(1);
    // the bot's messages are marked as its own; the customer's are not
    const page = (await http.get(`/messages/${ticket.id}`, { token: a.token })).body.messages as Array<{
      body: string;
      fromMe: boolean;
      isBot: boolean;
    }>;
    expect(page.filter((m) => m.fromMe).every((m) => m.isBot)).toBe(true);
    expect(page.filter((m) => !m.fromMe).map((m) => m.body)).toEqual(['oi', '2', '1', '1']);

    // the bot is done: a further message gets no answer
    await maria.say('obrigada');
    await pause(800);
    expect(await maria.outbox()).toHaveLength(4);
    liveSupport.socket.close();
    liveSales.socket.close();
  });

  it('an unknown answer repeats the menu up to maxUseBotQueues, then the ticket goes to the transfer queue and the bot stops', async () => {
    const a = await product.newCompany('Bot Limit');
    const sales = await newQueue(a, 'Vendas');
    const support = await newQueue(a, 'Suporte');
    const human = await newQueue(a, 'Humanos');
    const conn = await botConnection(a, [sales.id, support.id], {
      greetingMessage: 'Escolha:',
      maxUseBotQueues: 2,
      transferQueueId: human.id,
    });
    const from = number();
    const joao = customer(a, conn.id, from);
    await joao.say('bom dia');
    await joao.got(1);
    await joao.say('quero um humano');
    expect((await joao.got(2))[1]).toMatch(/^Opção inválida! .*\n\nEscolha:\n\n\*\[ 1 \]\* - Vendas/s);
    await joao.say('???');
    await joao.got(3);
    await joao.say('atendente por favor');
    const moved = await waitFor(async () => {
      const t = await ticketOf(a, from);
      return t.queueId === human.id ? t : undefined;
    });
    expect(moved.chatbot).toBe(false);
    await joao.say('1');
    await pause(800);
    // no message after the hand-over, not even for a valid number
    expect(await joao.outbox()).toHaveLength(3);
    expect((await ticketOf(a, from)).queueId).toBe(human.id);
  });

  it('an agent who writes first stops the bot on that ticket', async () => {
    const a = await product.newCompany('Bot Stop');
    const q1 = await newQueue(a, 'Um');
    const q2 = await newQueue(a, 'Dois');
    const conn = await botConnection(a, [q1.id, q2.id], { greetingMessage: 'Menu:' });
    const from = number();
    const ana = customer(a, conn.id, from);
    await ana.say('oi');
    await ana.got(1);
    const ticket = await ticketOf(a, from);
    expect((await http.put(`/tickets/${ticket.id}`, { token: a.token, body: { status: 'open' } })).status).toBe(200);
    await ana.say('2');
    await pause(800);
    expect(await ana.outbox()).toHaveLength(1);
    expect(await ticketOf(a, from, 'open')).toMatchObject({ queueId: null, chatbot: false });
  });

  it('outside the company’s working hours, the out-of-hours text goes once per period, not on every message', async () => {
    const a = await product.newCompany('Bot Hours');
    const q1 = await newQueue(a, 'Um');
    const q2 = await newQueue(a, 'Dois');
    const conn = await botConnection(a, [q1.id, q2.id], {
      greetingMessage: 'Menu:',
      outOfHoursMessage: 'Estamos fechados, {{firstName}}.',
    });
    // closed every day
    const closed = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'].map((weekdayEn) => ({
      weekday: weekdayEn,
      weekdayEn,
      startTime: '00:00',
      endTime: '00:00',
    }));
    const saved = await http.put(`/companies/${a.user.companyId}/schedules`, { token: a.token, body: { schedules: closed } });
    expect(saved.status).toBe(200);
    expect(saved.body.schedules).toHaveLength(7);
    expect((await http.get(`/companies/${a.user.companyId}`, { token: a.token })).body.schedules).toEqual(saved.body.schedules);
    await waitFor(
      async () =>
        (
          await tickets.query(
            `SELECT 1 FROM tickets.company_settings WHERE "companyId" = $1 AND key = 'schedules' AND value LIKE '%sunday%'`,
            [a.user.companyId],
          )
        ).length > 0,
    );
    await setting(a, 'scheduleType', 'company');

    const from = number();
    const bia = customer(a, conn.id, from);
    await bia.say('alguém aí?');
    expect(await bia.got(1)).toEqual(['Estamos fechados, Maria.']);
    await bia.say('olá??');
    await bia.say('preciso de ajuda');
    await pause(800);
    expect(await bia.outbox()).toHaveLength(1);
  });

  it('expiresTicket closes an idle ticket with the expiresInactiveMessage', async () => {
    const a = await product.newCompany('Bot Expiry');
    const q1 = await newQueue(a, 'Único');
    const conn = await botConnection(a, [q1.id], { expiresTicket: 1, expiresInactiveMessage: 'Encerramos por falta de resposta.' });
    const from = number();
    const caio = customer(a, conn.id, from);
    await caio.say('oi');
    const ticket = await ticketOf(a, from);
    // a minute and more without a message (the clock moved on)
    await tickets.query(`UPDATE tickets.tickets SET "updatedAt" = now() - interval '2 minutes' WHERE id = $1`, [ticket.id]);
    const closed = await ticketOf(a, from, 'closed');
    expect(closed.id).toBe(ticket.id);
    expect(await caio.got(1)).toEqual(['Encerramos por falta de resposta.']);
    expect((await http.get(`/tickets/${ticket.id}`, { token: a.token })).body.status).toBe('closed');
  });

  it('timeToTransfer: a customer who does not pick within it goes to the transfer queue, and the bot stops there', async () => {
    const a = await product.newCompany('Bot Transfer');
    const q1 = await newQueue(a, 'Um');
    const q2 = await newQueue(a, 'Dois');
    const human = await newQueue(a, 'Recepção');
    const conn = await botConnection(a, [q1.id, q2.id], { greetingMessage: 'Menu:', timeToTransfer: 1, transferQueueId: human.id });
    const from = number();
    const lia = customer(a, conn.id, from);
    await lia.say('oi');
    await lia.got(1);
    const ticket = await ticketOf(a, from);
    expect(ticket).toMatchObject({ queueId: null, chatbot: true });
    // another customer who just wrote stays in the menu
    const otherFrom = number();
    const other = customer(a, conn.id, otherFrom);
    await other.say('olá');
    await other.got(1);
    // a minute and more without a message (the clock moved on)
    await tickets.query(`UPDATE tickets.tickets SET "updatedAt" = now() - interval '2 minutes' WHERE id = $1`, [ticket.id]);
    const moved = await waitFor(async () => {
      const t = await ticketOf(a, from);
      return t.queueId === human.id ? t : undefined;
    });
    expect(moved).toMatchObject({ id: ticket.id, chatbot: false, status: 'pending' });
    expect((await http.get(`/tickets/${ticket.id}`, { token: a.token })).body).toMatchObject({ queueId: human.id, chatbot: false });
    await lia.say('1');
    await pause(800);
    expect(await lia.outbox()).toHaveLength(1);
    expect((await ticketOf(a, from)).queueId).toBe(human.id);
    expect(await ticketOf(a, otherFrom)).toMatchObject({ queueId: null, chatbot: true });
  });

  it('the files of a queue and of an option go with their texts, as the customer’s phone receives them', async () => {
    const a = await product.newCompany('Bot Files');
    const sales = await newQueue(a, 'Vendas', 'Nosso catálogo');
    const support = await newQueue(a, 'Suporte', 'Suporte técnico');
    await newOption(a, { queueId: sales.id, option: '1', title: 'Preços', message: 'Tabela de preços' });
    const manual = await newOption(a, { queueId: support.id, option: '1', title: 'Manual', message: 'Aqui está o manual' });
    const png = pngFile({ size: 8, rgb: [10, 200, 30] });
    const pdf = pdfFile('Manual do modem');
    const upload = async (path: string, name: string, data: Buffer, type: string) =>
      expect((await http.post(path, { token: a.token, form: mediaForm([{ field: 'file', name, data, type }]) })).status).toBeLessThan(300);
    await upload(`/queue/${sales.id}/media-upload`, 'catalogo.png', png, 'image/png');
    await upload(`/queue-options/${manual.id}/media-upload`, 'manual.pdf', pdf, 'application/pdf');
    const conn = await botConnection(a, [sales.id, support.id], { greetingMessage: 'Escolha:' });
    const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

    const ivoFrom = number();
    const ivo = customer(a, conn.id, ivoFrom);
    await ivo.say('oi');
    await ivo.got(1);
    await ivo.say('1');
    await ivo.got(2);
    const [menu, catalog] = await ivo.outbox();
    expect(menu?.media).toBeNull();
    expect(catalog?.body).toBe('Nosso catálogo\n\n*[ 1 ]* - Preços\n\n*[ 0 ]* - Menu anterior\n*[ # ]* - Menu inicial');
    expect(catalog?.media).toMatchObject({ mimetype: 'image/png', size: png.length, sha256: sha(png) });

    const evaFrom = number();
    const eva = customer(a, conn.id, evaFrom);
    await eva.say('oi');
    await eva.got(1);
    await eva.say('2');
    await eva.got(2);
    await eva.say('1');
    await eva.got(3);
    const sent = await eva.outbox();
    expect(sent[1]?.media).toBeNull();
    expect(sent[2]).toMatchObject({
      body: 'Aqui está o manual',
      media: { mimetype: 'application/pdf', size: pdf.length, sha256: sha(pdf) },
    });
    // the console shows the bot's file message like any other
    const t = await ticketOf(a, evaFrom);
    const msgs = (await http.get(`/messages/${t.id}`, { token: a.token })).body.messages as Array<{
      body: string;
      mediaType: string;
      isBot: boolean;
    }>;
    expect(msgs.find((m) => m.body === 'Aqui está o manual')).toMatchObject({ mediaType: 'application', isBot: true });
  });

  it('on close, asks for a rating; the customer’s 1–3 is stored with the ticket and the completion text thanks them', async () => {
    const a = await product.newCompany('Bot Rating');
    const q1 = await newQueue(a, 'Único');
    const conn = await botConnection(a, [q1.id], {
      ratingMessage: 'Como foi o atendimento?',
      complationMessage: 'Obrigado, {{firstName}}!',
    });
    await setting(a, 'userRating', 'enabled');
    const from = number();
    const rui = customer(a, conn.id, from);
    await rui.say('oi');
    const ticket = await ticketOf(a, from);
    expect((await http.put(`/tickets/${ticket.id}`, { token: a.token, body: { status: 'open' } })).status).toBe(200);
    expect((await http.put(`/tickets/${ticket.id}`, { token: a.token, body: { status: 'closed' } })).body.status).toBe('closed');
    const asked = await rui.got(1);
    expect(asked.at(-1)).toMatch(/^Como foi o atendimento\?\n\nDigite de 1 à 3/);
    const sent = asked.length;
    await rui.say('3');
    const thanked = await rui.got(sent + 1);
    expect(thanked.at(-1)).toBe('Obrigado, Maria!');
    const [rated] = await tickets.query(`SELECT rating, "ratingAskedAt" FROM tickets.tickets WHERE id = $1`, [ticket.id]);
    expect(rated).toEqual({ rating: 3, ratingAskedAt: null });
    // the dashboard's attendants table shows it
    const dashboard = await http.get('/dashboard?days=1', { token: a.token });
    expect(dashboard.body.attendants.find((u: { id: number }) => u.id === a.user.id)?.rating).toBe(3);
    // a second answer is only a new conversation, not a new rating
    await rui.say('1');
    await pause(800);
    expect((await tickets.query(`SELECT rating FROM tickets.tickets WHERE id = $1`, [ticket.id]))[0].rating).toBe(3);
  });
});

describe('company working hours (PUT /companies/{id}/schedules)', () => {
  it('refuses another company, agents and bad input with the form’s texts, writing nothing', async () => {
    const a = await product.newCompany('Hours A');
    const b = await product.newCompany('Hours B');
    const day = { weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' };
    expect((await http.put(`/companies/${a.user.companyId}/schedules`, { token: b.token, body: { schedules: [day] } })).status).toBe(403);
    expect((await http.get(`/companies/${a.user.companyId}`, { token: b.token })).status).toBe(403);
    const agent = await product.agentOf(a.token, []);
    expect((await http.put(`/companies/${a.user.companyId}/schedules`, { token: agent.token, body: { schedules: [day] } })).status).toBe(
      403,
    );

    const bad = async (schedules: unknown) => {
      const res = await http.put(`/companies/${a.user.companyId}/schedules`, { token: a.token, body: { schedules } });
      expect(res.status).toBe(400);
      return JSON.stringify(res.body.details ?? res.body);
    };
    expect(await bad([{ ...day, startTime: '25:00' }])).toContain('Hora inválida');
    expect(await bad([{ ...day, weekdayEn: 'someday' }])).toContain('Dia inválido');
    expect(await bad([day, day])).toContain('Dia repetido');
    expect(await bad('segunda')).toContain('schedules');
    expect((await http.get(`/companies/${a.user.companyId}`, { token: a.token })).body.schedules).toEqual([]);
    expect(
      (await http.put(`/companies/${a.user.companyId}/schedules`, { token: a.token, body: { schedules: [day] } })).body.schedules,
    ).toEqual([day]);
  });
});

describe('AI prompts', () => {
  const text = 'Você é o assistente da loja Exemplo. Responda com educação, em poucas palavras, sobre horários e pedidos.';

  it('a queue with a prompt answers its customer through the model, with the prompt, the conversation and the key', async () => {
    const a = await product.newCompany('Bot IA');
    const q = await newQueue(a, 'Assistente');
    const made = await http.post('/prompt', {
      token: a.token,
      body: {
        name: 'Assistente da loja',
        prompt: text,
        queueId: q.id,
        apiKey: 'sk-test-abcdef123456',
        maxTokens: 150,
        temperature: 0.5,
        maxMessages: 5,
      },
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      name: 'Assistente da loja',
      queueId: q.id,
      queue: { id: q.id, name: 'Assistente' },
      maxTokens: 150,
      temperature: 0.5,
      maxMessages: 5,
    });
    // the key is never answered whole
    expect(made.body.apiKey).toMatch(/^•+3456$/);
    expect(JSON.stringify((await http.get('/prompt', { token: a.token })).body)).not.toContain('sk-test-abcdef123456');
    const conn = await botConnection(a, [q.id], {});
    const from = number();
    const lia = customer(a, conn.id, from);
    await lia.say('Qual o horário de vocês?');
    expect(await lia.got(1)).toEqual(['IA: você disse "Qual o horário de vocês?"']);
    const call = modelCalls.at(-1);
    expect(call?.auth).toBe('Bearer sk-test-abcdef123456');
    expect(call?.body).toMatchObject({ model: 'modelo-teste', max_tokens: 150, temperature: 0.5 });
    expect(call?.body.messages[0]).toMatchObject({ role: 'system' });
    expect(call?.body.messages[0].content).toContain(text);
    await lia.say('E aos sábados?');
    expect((await lia.got(2))[1]).toBe('IA: você disse "E aos sábados?"');
    // the conversation so far goes along: our answer as the assistant's
    expect(modelCalls.at(-1)?.body.messages.slice(1)).toEqual([
      { role: 'user', content: 'Qual o horário de vocês?' },
      { role: 'assistant', content: 'IA: você disse "Qual o horário de vocês?"' },
      { role: 'user', content: 'E aos sábados?' },
    ]);
    // the masked key sent back by the form keeps the stored one
    expect((await http.put(`/prompt/${made.body.id}`, { token: a.token, body: { apiKey: made.body.apiKey, maxTokens: 99 } })).status).toBe(
      200,
    );
    await lia.say('Obrigada');
    await lia.got(3);
    expect(modelCalls.at(-1)).toMatchObject({ auth: 'Bearer sk-test-abcdef123456', body: { max_tokens: 99 } });
  });

  it('a model that fails or hangs, or a customer asking for a person, hands the ticket to the queue’s agents within the timeout', async () => {
    const a = await product.newCompany('Bot IA Falha');
    const q = await newQueue(a, 'Assistente');
    expect(
      (
        await http.post('/prompt', {
          token: a.token,
          body: { name: 'Assistente', prompt: text, queueId: q.id, apiKey: 'sk-test-falha-000000' },
        })
      ).status,
    ).toBe(201);
    const conn = await botConnection(a, [q.id], {});
    for (const words of ['está quebrado?', 'por que demora?', 'quero falar com um atendente']) {
      const from = number();
      const c = customer(a, conn.id, from);
      await c.say(words);
      const handed = await waitFor(async () => {
        const t = await ticketOf(a, from);
        return t.botState?.step === 'done' ? t : undefined;
      });
      expect(handed).toMatchObject({ status: 'pending', queueId: q.id, chatbot: false });
      // nobody answered for the model, and the bot is quiet from then on
      await c.say('alô?');
      await pause(1500);
      expect(await c.outbox()).toEqual([]);
    }
  });

  it('refuses bad input, agents and other companies on /prompt', async () => {
    const a = await product.newCompany('Prompt A');
    const b = await product.newCompany('Prompt B');
    const qa = await newQueue(a, 'Fila A');
    const qb = await newQueue(b, 'Fila B');
    const bad = async (body: Record<string, unknown>) => {
      const res = await http.post('/prompt', { token: a.token, body });
      expect(res.status).toBe(400);
      return JSON.stringify(res.body);
    };
    expect(await bad({ name: 'Bot', prompt: text, queueId: qa.id })).toContain('Too Short!');
    expect(await bad({ name: 'Assistente', prompt: 'curto demais', queueId: qa.id })).toContain('Too Short!');
    expect(await bad({ name: 'Assistente', prompt: text })).toContain('Informe o setor');
    expect(await bad({ name: 'Assistente', prompt: text, queueId: qb.id })).toContain('Informe o setor');
    expect(await bad({ name: 'Assistente', prompt: text, queueId: qa.id, temperature: 7 })).toContain('temperature');
    expect((await http.get('/prompt', { token: a.token })).body).toMatchObject({ prompts: [], count: 0, hasMore: false });
    const made = await http.post('/prompt', { token: a.token, body: { name: 'Assistente', prompt: text, queueId: qa.id } });
    expect(made.body).toMatchObject({ maxTokens: 100, temperature: 1, maxMessages: 10, apiKey: '' });
    for (const res of [
      await http.get(`/prompt/${made.body.id}`, { token: b.token }),
      await http.put(`/prompt/${made.body.id}`, { token: b.token, body: { name: 'Roubado' } }),
      await http.delete(`/prompt/${made.body.id}`, { token: b.token }),
    ]) {
      expect(res.status).toBe(404);
    }
    expect((await http.get('/prompt', { token: b.token })).body.count).toBe(0);
    const agent = await product.agentOf(a.token, [qa.id]);
    expect((await http.get('/prompt', { token: agent.token })).status).toBe(403);
    // a queue names a prompt of its own company only
    expect((await http.put(`/queue/${qb.id}`, { token: b.token, body: { promptId: made.body.id } })).status).toBe(400);
    expect((await http.put(`/queue/${qa.id}`, { token: a.token, body: { promptId: made.body.id } })).body.promptId).toBe(made.body.id);
    expect((await http.delete(`/prompt/${made.body.id}`, { token: a.token })).status).toBe(200);
    expect((await http.get(`/queue/${qa.id}`, { token: a.token })).body.promptId).toBeNull();
  });
});

describe('queue integrations', () => {
  const flowsUrl = () => `http://127.0.0.1:${(flows.address() as AddressInfo).port}`;

  async function integratedQueue(a: Company, body: Record<string, unknown>) {
    const made = await http.post('/queueIntegration', { token: a.token, body });
    expect(made.status).toBe(201);
    const q = await newQueue(a, `Fluxo ${made.body.id}`);
    expect((await http.put(`/queue/${q.id}`, { token: a.token, body: { integrationId: made.body.id } })).body.integrationId).toBe(
      made.body.id,
    );
    return { integration: made.body, queue: q };
  }

  it('a webhook peer and an n8n-style peer answer the customer with what they say to send', async () => {
    const a = await product.newCompany('Bot Fluxos');
    const { integration, queue } = await integratedQueue(a, { type: 'webhook', name: 'Meu webhook', urlN8N: `${flowsUrl()}/webhook` });
    expect(integration).toMatchObject({ type: 'webhook', name: 'Meu webhook', projectName: 'Meu webhook' });
    const conn = await botConnection(a, [queue.id], {});
    const from = number();
    const ana = customer(a, conn.id, from);
    await ana.say('tem pizza?');
    expect(await ana.got(1)).toEqual(['Webhook: recebi "tem pizza?" de Maria Souza']);
    const call = flowCalls.find((c) => c.url === '/webhook' && c.body.message?.body === 'tem pizza?');
    expect(call?.body).toMatchObject({
      event: 'message',
      companyId: a.user.companyId,
      ticket: { queueId: queue.id },
      contact: { number: from, name: 'Maria Souza' },
      integration: { id: integration.id, type: 'webhook' },
    });

    const n8n = await integratedQueue(a, { type: 'n8n', name: 'Fluxo n8n', urlN8N: `${flowsUrl()}/n8n` });
    const conn2 = await botConnection(a, [n8n.queue.id], {});
    const bob = customer(a, conn2.id, number());
    await bob.say('oi');
    const got = await bob.got(2);
    expect(got[0]).toBe('n8n 1: oi');
    expect(got[1]).toMatch(/^n8n 2: ticket \d+$/);
  });

  it('a Typebot-compatible peer drives the conversation: a session kept, the keywords, the unknown-answer text', async () => {
    const a = await product.newCompany('Bot Typebot');
    const { queue } = await integratedQueue(a, {
      type: 'typebot',
      name: 'Typebot loja',
      urlN8N: `${flowsUrl()}/typebot`,
      typebotSlug: 'loja-bot',
      typebotDelayMessage: 0,
      typebotKeywordFinish: 'sair',
      typebotKeywordRestart: 'reiniciar',
      typebotRestartMessage: 'Vamos recomeçar.',
      typebotUnknownMessage: 'Não entendi.',
    });
    const conn = await botConnection(a, [queue.id], {});
    const from = number();
    const caio = customer(a, conn.id, from);
    await caio.say('oi');
    expect(await caio.got(1)).toEqual(['Olá! Qual é o seu nome?']);
    await caio.say('Caio');
    const named = await caio.got(3);
    expect(named[1]).toBe('Prazer, Caio!');
    const session = /\(sessão (sess-\d+)\)/.exec(named[2] ?? '')?.[1];
    expect(session).toBeDefined();
    await caio.say('mudo');
    expect((await caio.got(4))[3]).toBe('Não entendi.');
    // the same session all along
    expect(flowCalls.filter((c) => c.url === `/typebot/api/v1/sessions/${session}/continueChat`)).toHaveLength(2);
    await caio.say('reiniciar');
    const restarted = await caio.got(6);
    expect(restarted.slice(4)).toEqual(['Vamos recomeçar.', 'Olá! Qual é o seu nome?']);
    await caio.say('sair');
    const done = await waitFor(async () => {
      const t = await ticketOf(a, from);
      return t.botState?.step === 'done' ? t : undefined;
    });
    expect(done).toMatchObject({ chatbot: false, queueId: queue.id });
  });

  it('a Dialogflow agent answers through the official client with the service account, its project and language; ending the interaction or failing hands over', async () => {
    const a = await product.newCompany('Bot Dialogflow');
    const jsonContent = JSON.stringify({
      type: 'service_account',
      project_id: 'loja-df',
      client_email: 'bot@loja-df.iam.gserviceaccount.com',
      private_key: serviceAccount.privateKey,
    });
    const { queue } = await integratedQueue(a, {
      type: 'dialogflow',
      name: 'Atendente virtual',
      projectName: 'loja-df',
      language: 'pt-BR',
      jsonContent,
    });
    const conn = await botConnection(a, [queue.id], {});
    const from = number();
    const rui = customer(a, conn.id, from);
    await rui.say('quero ver meu pedido');
    expect(await rui.got(1)).toEqual(['Dialogflow: entendi "quero ver meu pedido"']);
    const call = dialogflowCalls.find((c) => c.body.queryInput?.text?.text === 'quero ver meu pedido');
    expect(call).toMatchObject({ project: 'loja-df', body: { queryInput: { text: { languageCode: 'pt-BR' } } } });
    // the client signed its token with the service account's key
    const [head, claims, signature] = (call?.auth ?? '').replace(/^Bearer /, '').split('.');
    expect(
      createVerify('RSA-SHA256')
        .update(`${head}.${claims}`)
        .verify(serviceAccount.publicKey, Buffer.from(signature ?? '', 'base64url')),
    ).toBe(true);
    expect(JSON.parse(Buffer.from(claims ?? '', 'base64url').toString())).toMatchObject({ iss: 'bot@loja-df.iam.gserviceaccount.com' });
    // one Dialogflow session per ticket
    const ticket = await ticketOf(a, from);
    expect(call?.session).toContain(String(ticket.id));
    expect(ticket).toMatchObject({ queueId: queue.id, chatbot: true });

    // an intent that ends the interaction: its text, then the queue's agents
    await rui.say('tchau');
    expect((await rui.got(2))[1]).toBe('Até logo!');
    expect(await waitFor(async () => ((await ticketOf(a, from)).chatbot ? undefined : await ticketOf(a, from)))).toMatchObject({
      queueId: queue.id,
      status: 'pending',
      botState: { step: 'done' },
    });
    await rui.say('alô?');
    await pause(800);
    expect(await rui.outbox()).toHaveLength(2);

    // Dialogflow failing (after its retry): the queue's agents, nothing sent for it
    const other = number();
    const eli = customer(a, conn.id, other);
    await eli.say('falha geral');
    expect(
      await waitFor(async () => ((await ticketOf(a, other)).botState?.step === 'done' ? await ticketOf(a, other) : undefined)),
    ).toMatchObject({ chatbot: false, queueId: queue.id });
    expect(dialogflowCalls.filter((c) => c.body.queryInput?.text?.text === 'falha geral')).toHaveLength(2);
    expect(await eli.outbox()).toHaveLength(0);
  });

  it('a peer that errors or hangs, or says to transfer, hands the ticket to the queue’s agents within its timeout', async () => {
    const a = await product.newCompany('Bot Fluxo Falha');
    const { queue } = await integratedQueue(a, { type: 'webhook', name: 'Webhook instável', urlN8N: `${flowsUrl()}/webhook` });
    const conn = await botConnection(a, [queue.id], {});
    for (const words of ['falha geral', 'trava tudo', 'transfere por favor']) {
      const from = number();
      const c = customer(a, conn.id, from);
      await c.say(words);
      const handed = await waitFor(async () => {
        const t = await ticketOf(a, from);
        return t.botState?.step === 'done' ? t : undefined;
      });
      expect(handed).toMatchObject({ status: 'pending', queueId: queue.id, chatbot: false });
      expect(await c.outbox()).toEqual([]);
    }
  });

  it('refuses bad input, agents and other companies on /queueIntegration; Dialogflow credentials are kept masked', async () => {
    const a = await product.newCompany('Integra A');
    const b = await product.newCompany('Integra B');
    const bad = async (body: Record<string, unknown>) => {
      const res = await http.post('/queueIntegration', { token: a.token, body });
      expect(res.status).toBe(400);
      return JSON.stringify(res.body);
    };
    expect(await bad({ type: 'webhook', name: 'W' })).toContain('Too Short!');
    expect(await bad({ type: 'telegram', name: 'Web' })).toContain('type');
    expect(await bad({ type: 'webhook', name: 'Web' })).toContain('urlN8N');
    expect(await bad({ type: 'webhook', name: 'Web', urlN8N: 'ftp://x.example' })).toContain('URL inválida');
    expect(await bad({ type: 'typebot', name: 'Typebot', urlN8N: 'https://typebot.example' })).toContain('typebotSlug');
    expect(await bad({ type: 'dialogflow', name: 'Dialog', projectName: 'p', language: 'fr', jsonContent: '{}' })).toContain(
      'Idioma inválido',
    );
    expect(await bad({ type: 'dialogflow', name: 'Dialog', projectName: 'p', language: 'pt-BR', jsonContent: '{"a":1}' })).toContain(
      'Credenciais inválidas',
    );
    const credentials = JSON.stringify({
      client_email: 'bot@projeto.iam.gserviceaccount.com',
      private_key: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n',
      project_id: 'projeto',
    });
    const dialog = await http.post('/queueIntegration', {
      token: a.token,
      body: { type: 'dialogflow', name: 'Dialog', projectName: 'projeto', language: 'pt-BR', jsonContent: credentials },
    });
    expect(dialog.status).toBe(201);
    expect(dialog.body.jsonContent).toMatch(/^•+$/);
    expect(JSON.stringify((await http.get('/queueIntegration', { token: a.token })).body)).not.toContain('PRIVATE KEY');
    const tested = await http.post('/queueIntegration/testSession', {
      token: a.token,
      body: { projectName: 'projeto', jsonContent: credentials, language: 'pt-BR' },
    });
    expect(tested.body).toMatchObject({ ok: true, clientEmail: 'bot@projeto.iam.gserviceaccount.com' });
    expect(
      (
        await http.post('/queueIntegration/testSession', {
          token: a.token,
          body: { projectName: 'projeto', jsonContent: 'não é json', language: 'pt-BR' },
        })
      ).status,
    ).toBe(400);
    const list = (await http.get('/queueIntegration?searchParam=dia', { token: a.token })).body;
    expect(list).toMatchObject({ count: 1, hasMore: false });
    expect(list.queueIntegrations.map((i: { name: string }) => i.name)).toEqual(['Dialog']);
    for (const res of [
      await http.get(`/queueIntegration/${dialog.body.id}`, { token: b.token }),
      await http.put(`/queueIntegration/${dialog.body.id}`, { token: b.token, body: { name: 'Roubada' } }),
      await http.delete(`/queueIntegration/${dialog.body.id}`, { token: b.token }),
    ]) {
      expect(res.status).toBe(404);
    }
    expect((await http.get('/queueIntegration', { token: b.token })).body.count).toBe(0);
    const qb = await newQueue(b, 'Fila B');
    expect((await http.put(`/queue/${qb.id}`, { token: b.token, body: { integrationId: dialog.body.id } })).status).toBe(400);
    const agent = await product.agentOf(a.token, []);
    expect((await http.get('/queueIntegration', { token: agent.token })).status).toBe(403);
    expect((await http.delete(`/queueIntegration/${dialog.body.id}`, { token: a.token })).status).toBe(200);
  });
});

describe('the plan gate of prompts and integrations', () => {
  it('a plan without useOpenAi / useIntegrations answers 403 with the spec’s text on /prompt and /queueIntegration; a plan change applies within seconds', async () => {
    const a = await product.newCompany('Plano Sem IA');
    const q = await newQueue(a, 'Fila');
    const auth = createDataSource(authDatabase(TEST_DATABASE_URL, 1));
    await auth.initialize();
    try {
      const [plan] = (await auth.query(
        // an id of its own, far from billing's (auth's copy takes billing's ids)
        `INSERT INTO auth.plans (id, name, users, connections, queues, value, "useOpenAi", "useIntegrations", "isPublic", "trialDays", "updatedAt")
         VALUES ($1, $2, 10, 10, 10, 0, false, false, false, 0, now()) RETURNING id`,
        [900_000 + Math.floor(Math.random() * 99_999), `Sem IA ${randomBytes(3).toString('hex')}`],
      )) as Array<{ id: number }>;
      const [before] = (await auth.query(`SELECT "planId" FROM auth.companies WHERE id = $1`, [a.user.companyId])) as Array<{
        planId: number;
      }>;
      // the provider moves the company to it (settings tab Empresas): the gate follows on the next request
      const superToken = signAccessToken(
        { id: 1_999_999_401, companyId: 1, profile: 'admin', super: true, sid: randomUUID() },
        TEST_JWT_SECRET,
      );
      expect((await http.put(`/companies/${a.user.companyId}`, { token: superToken, body: { planId: plan?.id } })).status).toBe(200);
      const refused = {
        status: 403,
        error: 'ERR_NO_PERMISSION',
        message: 'Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.',
      };
      const answer = async (res: { status: number; body: { error?: string; message?: string } }) => ({
        status: res.status,
        error: res.body.error,
        message: res.body.message,
      });
      expect(await answer(await http.get('/prompt', { token: a.token }))).toEqual(refused);
      expect(
        await answer(await http.post('/prompt', { token: a.token, body: { name: 'Assistente', prompt: 'x'.repeat(60), queueId: q.id } })),
      ).toEqual(refused);
      expect(await answer(await http.get('/queueIntegration', { token: a.token }))).toEqual(refused);
      expect(await answer(await http.post('/queueIntegration/testSession', { token: a.token, body: {} }))).toEqual(refused);
      // nothing was written
      expect((await tickets.query(`SELECT count(*)::int AS n FROM tickets.prompts WHERE "companyId" = $1`, [a.user.companyId]))[0].n).toBe(
        0,
      );
      // the other routes of the company are not gated
      expect((await http.get('/queue', { token: a.token })).status).toBe(200);
      // back on the full plan, the next requests pass
      expect((await http.put(`/companies/${a.user.companyId}`, { token: superToken, body: { planId: before?.planId } })).status).toBe(200);
      expect((await http.get('/prompt', { token: a.token })).status).toBe(200);
      expect((await http.get('/queueIntegration', { token: a.token })).status).toBe(200);
    } finally {
      await auth.destroy();
    }
  });
});
