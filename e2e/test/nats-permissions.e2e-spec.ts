import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { runMigrations } from '@wa/database';
import { HttpClient, randomIp, TEST_DATABASE_URL, waitFor } from '@wa/testing';
import { AckPolicy, connect, StringCodec, type NatsConnection } from 'nats';
import { authDatabase } from '../../services/auth/src/database/data-source.js';
import { billingDatabase } from '../../services/billing/src/database/data-source.js';
import { campaignsDatabase } from '../../services/campaigns/src/database/data-source.js';
import { ticketsDatabase } from '../../services/tickets/src/database/data-source.js';
import { whatsappDatabase } from '../../services/whatsapp-sessions/src/database/data-source.js';
import { startShippedNats, type PrivateNats } from './nats-server.js';
import { startProcesses, stopProcesses, type ServiceProcess } from './processes.js';
import { Product } from './product.js';

/**
 * The shipped NATS configuration (k8s/base/nats.conf), on a private nats-server: every service runs
 * the message path with its own user, and nothing it does needs more; what a service may not do is refused.
 */
let nats: PrivateNats;
const running: ServiceProcess[] = [];
const clients: NatsConnection[] = [];
let product: Product;
let http: HttpClient;

async function as(user: string, pass = nats.passwords[user]): Promise<NatsConnection> {
  const nc = await connect({ servers: nats.url, user, pass, inboxPrefix: `_INBOX.${user}`, reconnect: false });
  clients.push(nc);
  return nc;
}

/** The error a NATS call ends with (undefined when it succeeds). */
async function failure(call: () => Promise<unknown>): Promise<{ code?: string; message: string } | undefined> {
  try {
    await call();
    return undefined;
  } catch (err) {
    return { code: (err as { code?: string }).code, message: (err as Error).message };
  }
}

const sc = StringCodec();

beforeAll(async () => {
  nats = await startShippedNats();
  for (const db of [authDatabase, ticketsDatabase, whatsappDatabase, campaignsDatabase, billingDatabase])
    await runMigrations(db(TEST_DATABASE_URL));
  const natsEnv = (user: string) => ({ NATS_URL: nats.url, NATS_USER: user, NATS_PASSWORD: nats.passwords[user] });
  // started side by side, as compose and k8s do: each declares its own streams and waits for the others'
  const services = await startProcesses({
    auth: natsEnv('auth'),
    tickets: natsEnv('tickets'),
    'whatsapp-sessions': natsEnv('whatsapp-sessions'),
    'realtime-gateway': natsEnv('realtime-gateway'),
    campaigns: natsEnv('campaigns'),
    billing: natsEnv('billing'),
    'messaging-gateway': (urls) => ({
      ...natsEnv('messaging-gateway'),
      AUTH_URL: urls.auth,
      TICKETS_URL: urls.tickets,
      WHATSAPP_SESSIONS_URL: urls['whatsapp-sessions'],
      REALTIME_URL: urls['realtime-gateway'],
      CAMPAIGNS_URL: urls.campaigns,
      BILLING_URL: urls.billing,
    }),
  });
  running.push(...Object.values(services));
  const gateway = services['messaging-gateway'];
  // a first start fans out from new events on: wait until realtime consumes all three streams, and the campaign pages
  const jsm = await (await as('operator')).jetstreamManager();
  await waitFor(
    async () => {
      const durables = [
        ...['TICKETS', 'CONNECTIONS', 'AUTH'].map((stream) => [stream, 'realtime']),
        ['CAMPAIGNS', 'realtime-campaigns'],
        ['CAMPAIGNS', 'realtime-campaign-lists'],
        // tickets keeps the campaign messages a contact may answer
        ['CAMPAIGNS', 'tickets-campaign-sent'],
        // tickets makes webhook deliveries of the connections' session events (issue 45 §3)
        ['CONNECTIONS', 'tickets-webhook-connections'],
        // a renewal: auth on billing's paid invoices, realtime on auth's confirmed payments
        ['BILLING', 'auth-invoices-paid'],
        ['AUTH', 'realtime-payments'],
      ];
      for (const [stream, durable] of durables) if (!(await jsm.consumers.info(stream!, durable!).catch(() => null))) return false;
      return true;
    },
    { timeoutMs: 30_000 },
  );
  http = new HttpClient(gateway.url, { 'x-forwarded-for': randomIp() });
  product = new Product(http, gateway.url);
}, 120_000);

afterAll(async () => {
  for (const nc of clients) await nc.close().catch(() => undefined);
  await stopProcesses(running);
  await nats?.stop();
});

describe('NATS with one user per service (k8s/base/nats.conf)', () => {
  it('runs the message path, live events and directory changes with each service confined to its own subjects', async () => {
    const a = await product.newCompany('Perm Co');
    const queue = (await http.post('/queue', { token: a.token, body: { name: 'Fila', color: '#224466' } })).body;
    const other = (await http.post('/queue', { token: a.token, body: { name: 'Outra', color: '#664422' } })).body;
    const conn = await product.connectedSandbox(a.token, queue.id);
    const live = await product.socketOf(a.token);
    live.socket.emit('joinTickets', 'pending');
    live.socket.emit('joinNotification');

    const from = `5511${Date.now().toString().slice(-9)}`;
    await http.post(`/whatsappsession/${conn.id}/sandbox/inbound`, { token: a.token, body: { from, name: 'Ana', body: 'Oi' } });
    const seen = await waitFor(async () =>
      live.events.find((e) => e.name === `company-${a.user.companyId}-ticket` && e.payload.ticket?.contact?.number === from),
    );
    const ticketId = seen.payload.ticket.id as number;
    await http.put(`/tickets/${ticketId}`, { token: a.token, body: { status: 'open' } });
    const reply = await http.post(`/messages/${ticketId}`, { token: a.token, body: { body: 'Olá Ana' } });
    expect(reply.status).toBe(201);
    const acked = await waitFor(async () => {
      const m = (await http.get(`/messages/${ticketId}`, { token: a.token })).body.messages.find(
        (x: { id: number }) => x.id === reply.body.id,
      );
      return m && m.ack >= 3 ? m : undefined;
    });
    expect(acked.ack).toBeGreaterThanOrEqual(3);

    // auth writes the user directory, tickets reads it: an agent moved to the ticket's queue sees it at once
    await http.put(`/tickets/${ticketId}`, { token: a.token, body: { status: 'pending' } });
    const agent = await product.agentOf(a.token, [other.id]);
    expect(
      (await http.get(`/tickets?status=pending&showAll=false`, { token: agent.token })).body.tickets.map((t: { id: number }) => t.id),
    ).not.toContain(ticketId);
    expect((await http.put(`/users/${agent.id}`, { token: a.token, body: { queueIds: [queue.id] } })).status).toBe(200);
    expect(
      (await http.get(`/tickets?status=pending&showAll=false`, { token: agent.token })).body.tickets.map((t: { id: number }) => t.id),
    ).toContain(ticketId);
    live.socket.close();

    // nothing any service did needed a subject outside its permissions
    expect(nats.log()).not.toMatch(/Violation/);
    for (const p of running) expect(p.output()).not.toMatch(/PERMISSIONS_VIOLATION|Permissions Violation/);
  });

  it("refuses a service's user outside its permissions, and anyone without a user", async () => {
    const operator = await as('operator');
    const jsm = await operator.jetstreamManager();
    const before = (await jsm.streams.info('TICKETS')).state.messages;

    const realtime = await as('realtime-gateway');
    // realtime only fans out: it may not publish a ticket event, nor subscribe to the bus' raw subjects
    expect(await failure(() => realtime.jetstream().publish('ticket.updated.1.1', sc.encode('{}')))).toMatchObject({
      code: 'PERMISSIONS_VIOLATION',
    });
    expect(
      await failure(async () => {
        const sub = realtime.subscribe('ticket.>');
        for await (const _ of sub) break;
      }),
    ).toMatchObject({ code: 'PERMISSIONS_VIOLATION' });

    // whatsapp-sessions may not pull tickets' durable, nor write the user directory
    const sessions = await as('whatsapp-sessions');
    expect(
      await failure(() => sessions.request('$JS.API.CONSUMER.MSG.NEXT.WA.tickets-inbound', sc.encode('{"batch":1}'), { timeout: 2000 })),
    ).toMatchObject({ code: 'PERMISSIONS_VIOLATION' });
    expect(await failure(() => sessions.jetstream().publish('$KV.users.1.1', sc.encode('{"profile":"admin"}')))).toMatchObject({
      code: 'PERMISSIONS_VIOLATION',
    });
    // its campaign lanes (wa-out-campaign-<id>) are its own on CAMPAIGNS; tickets' durable there and campaigns' on WA are not
    for (const durable of ['CAMPAIGNS.tickets-campaign-sent', 'WA.campaigns-acks', 'WA.campaigns-inbound']) {
      expect(
        await failure(() => sessions.request(`$JS.API.CONSUMER.MSG.NEXT.${durable}`, sc.encode('{"batch":1}'), { timeout: 2000 })),
      ).toMatchObject({ code: 'PERMISSIONS_VIOLATION' });
    }

    // billing keeps its copy of auth's companies on a durable of its own; auth's renewal durable on BILLING is auth's
    const billing = await as('billing');
    const billingJsm = await billing.jetstreamManager();
    const copy =
      (await billingJsm.consumers.info('AUTH', 'billing-companies').catch(() => null)) ??
      (await billingJsm.consumers.add('AUTH', {
        durable_name: 'billing-companies',
        ack_policy: AckPolicy.Explicit,
        filter_subject: 'company.*.*',
      }));
    expect(copy.config.durable_name).toBe('billing-companies');
    for (const durable of ['AUTH.tickets-companies', 'BILLING.auth-invoices-paid']) {
      expect(
        await failure(() => billing.request(`$JS.API.CONSUMER.MSG.NEXT.${durable}`, sc.encode('{"batch":1}'), { timeout: 2000 })),
      ).toMatchObject({ code: 'PERMISSIONS_VIOLATION' });
    }
    expect(
      await failure(() =>
        realtime.request('$JS.API.CONSUMER.MSG.NEXT.BILLING.auth-invoices-paid', sc.encode('{"batch":1}'), { timeout: 2000 }),
      ),
    ).toMatchObject({ code: 'PERMISSIONS_VIOLATION' });

    // tickets may not announce connections (whatsapp-sessions' subjects), nor delete a stream
    const tickets = await as('tickets');
    expect(await failure(() => tickets.jetstream().publish('connection.updated.1.1', sc.encode('{}')))).toMatchObject({
      code: 'PERMISSIONS_VIOLATION',
    });
    expect(await failure(() => tickets.request('$JS.API.STREAM.DELETE.AUTH', sc.encode(''), { timeout: 2000 }))).toMatchObject({
      code: 'PERMISSIONS_VIOLATION',
    });

    // a service may not listen on another's replies
    expect(
      await failure(async () => {
        const sub = tickets.subscribe('_INBOX.auth.>');
        for await (const _ of sub) break;
      }),
    ).toMatchObject({ code: 'PERMISSIONS_VIOLATION' });

    // no user, or a wrong password: no connection at all
    expect(await failure(() => connect({ servers: nats.url, reconnect: false }))).toMatchObject({ code: 'AUTHORIZATION_VIOLATION' });
    expect(await failure(() => connect({ servers: nats.url, user: 'tickets', pass: nats.passwords.auth, reconnect: false }))).toMatchObject(
      { code: 'AUTHORIZATION_VIOLATION' },
    );

    expect((await jsm.streams.info('TICKETS')).state.messages).toBe(before);
    expect(nats.log()).toMatch(/Publish Violation - User "realtime-gateway", Subject "ticket.updated.1.1"/);
  });
});
