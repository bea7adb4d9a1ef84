import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { runMigrations } from '@wa/database';
import { HttpClient, randomIp, TEST_DATABASE_URL, waitFor } from '@wa/testing';
import Ajv from 'ajv';
import { randomBytes, randomInt } from 'node:crypto';
import { authDatabase } from '../../services/auth/src/database/data-source.js';
import { ticketsDatabase } from '../../services/tickets/src/database/data-source.js';
import { whatsappDatabase } from '../../services/whatsapp-sessions/src/database/data-source.js';
import { startMessagePath, stopProcesses, type ServiceProcess } from './processes.js';
import { Product } from './product.js';

/**
 * The API as documented is the API as it answers (issue 45 §1): the gateway's `/docs/openapi.json` (every service's
 * routes, their success answers' schemas read from the TypeScript the controllers return) describes every success
 * answer that has a body, and a sample of live answers — the console's lists and records, a send and a lookup of the
 * public API — validate against their schemas. `/api/docs` (the public API's) answers through the ingress; the whole
 * `/docs` does not (DOCS_PUBLIC off).
 */
const running: ServiceProcess[] = [];
let gatewayUrl: string;
let http: HttpClient;
let product: Product;

type Doc = {
  openapi: string;
  paths: Record<
    string,
    Record<string, { operationId?: string; responses: Record<string, { content?: Record<string, { schema?: unknown }> }> }>
  >;
  components: { schemas: Record<string, unknown> };
};

beforeAll(async () => {
  for (const db of [authDatabase, ticketsDatabase, whatsappDatabase]) await runMigrations(db(TEST_DATABASE_URL));
  const services = await startMessagePath({ 'messaging-gateway': { API_SENDS_PER_MINUTE: '600' } });
  running.push(...Object.values(services));
  gatewayUrl = services['messaging-gateway'].url;
  http = new HttpClient(gatewayUrl, { 'x-forwarded-for': randomIp() });
  product = new Product(http, gatewayUrl);
});

afterAll(async () => {
  await stopProcesses(running);
});

/** The merged document, as an operator reads it on the gateway itself, once every service of the message path answers. */
async function documentOfAll(): Promise<Doc> {
  return waitFor(async () => {
    const res = await fetch(`${gatewayUrl}/docs/openapi.json`);
    const doc = (await res.json()) as Doc;
    // billing and campaigns are not on the message path: their routes are not listed here
    return res.ok && doc.paths['/tickets'] && doc.paths['/auth/login'] && doc.paths['/whatsapp'] ? doc : undefined;
  });
}

/** The schema of a route's success answer: `path` as documented (`/tickets/{id}`), `status` the answer's. */
function answerSchema(doc: Doc, method: string, path: string, status: number): unknown {
  const op = doc.paths[path]?.[method];
  if (!op) throw new Error(`${method.toUpperCase()} ${path} is not documented`);
  const schema = op.responses[String(status)]?.content?.['application/json']?.schema;
  if (!schema) throw new Error(`${method.toUpperCase()} ${path} documents no schema for ${status}`);
  return schema;
}

function validate(doc: Doc, method: string, path: string, status: number, body: unknown): string[] {
  const ajv = new Ajv({ strict: false, allErrors: true });
  const check = ajv.compile({ ...(answerSchema(doc, method, path, status) as object), components: doc.components });
  return check(body) ? [] : (check.errors ?? []).map((e) => `${e.instancePath || '(answer)'} ${e.message} ${JSON.stringify(e.params)}`);
}

describe('the documented API', () => {
  it('describes the body of every success answer that has one (a schema, not only words)', async () => {
    const doc = await documentOfAll();
    expect(doc.openapi).toBe('3.1.0');
    const missing: string[] = [];
    let described = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        for (const [status, response] of Object.entries(op.responses ?? {})) {
          if (!/^2\d\d$/.test(status) || status === '204') continue;
          if (response.content?.['application/json']?.schema || Object.keys(response.content ?? {}).length > 0) described++;
          else missing.push(`${method.toUpperCase()} ${path} ${status} (${op.operationId})`);
        }
      }
    }
    // answers that are files, redirects or streams, or built from a service's own types: described in words only
    const wordsOnly = new Set([
      // files: a stored medium, an announcement's image, the contacts spreadsheet
      'MediaController_get',
      'AnnouncementsController_media',
      'ContactsController_export',
      // whatsapp-sessions' placement answers are its own types (operators' routes)
      'SessionsController_placement',
      'SessionsController_placementOf',
    ]);
    const unexpected = missing.filter((m) => ![...wordsOnly].some((id) => m.endsWith(`(${id})`)));
    expect(unexpected).toEqual([]);
    expect(described).toBeGreaterThan(100);
  });

  it("validates a sample of live answers against their schemas: the console's and the public API's", async () => {
    const doc = await documentOfAll();
    const a = await product.newCompany('Contract Co');
    const queue = await http.post('/queue', { token: a.token, body: { name: 'Atendimento', color: '#1a2b3c' } });
    expect(queue.status).toBe(201);
    const conn = await product.connectedSandbox(a.token, queue.body.id);
    // a mobile of São Paulo (9 and eight digits): the clock's last nine digits were one only while their first was 9
    const from = `5511${randomInt(910_000_000, 999_999_999)}`;
    await http.post(`/whatsappsession/${conn.id}/sandbox/inbound`, { token: a.token, body: { from, name: 'Rita', body: 'Olá' } });
    const ticket = await waitFor(async () => {
      const list = await http.get('/tickets?status=pending&showAll=true', { token: a.token });
      return list.body.tickets?.find((t: { contact: { number: string } }) => t.contact.number === from);
    });
    const samples: Array<[string, string, string, number, unknown]> = [];
    const answer = async (method: 'get' | 'post' | 'put', url: string, documented: string, status: number, body?: unknown) => {
      const res = await http[method](url, { token: a.token, body });
      expect(`${method.toUpperCase()} ${url} → ${res.status}`).toBe(`${method.toUpperCase()} ${url} → ${status}`);
      samples.push([method, documented, url, status, res.body]);
    };
    await answer('post', '/queue', '/queue', 201, { name: 'Vendas', color: '#3c2b1a' });
    await answer('get', '/tickets?status=pending&showAll=true', '/tickets', 200);
    await answer('get', `/tickets/${ticket.id}`, '/tickets/{id}', 200);
    await answer('get', `/messages/${ticket.id}`, '/messages/{ticketId}', 200);
    await answer('get', '/contacts', '/contacts', 200);
    await answer('get', `/contacts/${ticket.contact.id}`, '/contacts/{id}', 200);
    await answer('get', '/queue', '/queue', 200);
    await answer('get', '/whatsapp', '/whatsapp', 200);
    await answer('get', `/whatsapp/${conn.id}`, '/whatsapp/{id}', 200);
    await answer('get', '/users', '/users', 200);
    await answer('get', '/tags', '/tags', 200);
    await answer('get', '/quick-messages', '/quick-messages', 200);
    await answer('get', '/settings', '/settings', 200);
    await answer('put', `/tickets/${ticket.id}`, '/tickets/{id}', 200, { status: 'open' });

    // the public API, with the connection's token
    const apiToken = `api-${randomBytes(16).toString('hex')}`;
    expect((await http.put(`/whatsapp/${conn.id}`, { token: a.token, body: { token: apiToken } })).status).toBe(200);
    const sent = await http.post('/api/v1/messages/send', { token: apiToken, body: { number: from, body: 'Pelo contrato' } });
    expect(sent.status).toBe(202);
    samples.push(['post', '/api/v1/messages/send', '/api/v1/messages/send', 202, sent.body]);
    const looked = await http.get(`/api/v1/messages/${sent.body.id}`, { token: apiToken });
    expect(looked.status).toBe(200);
    samples.push(['get', '/api/v1/messages/{id}', `/api/v1/messages/${sent.body.id}`, 200, looked.body]);

    const problems = samples.flatMap(([method, documented, url, status, body]) =>
      validate(doc, method, documented, status, body).map((p) => `${method.toUpperCase()} ${url}: ${p}`),
    );
    expect(problems).toEqual([]);
    // and the schemas are not so loose that anything passes: a ticket without its id is refused
    expect(validate(doc, 'get', '/tickets/{id}', 200, { ...ticket, id: 'x' })).not.toEqual([]);
  });

  it("serves the public API's own document through the ingress, and the whole one only to operators", async () => {
    await documentOfAll();
    const viaIngress = { 'x-forwarded-for': randomIp() };
    const pub = await fetch(`${gatewayUrl}/api/docs/openapi.json`, { headers: viaIngress });
    expect(pub.status).toBe(200);
    const doc = (await pub.json()) as Doc & { security: unknown };
    expect(Object.keys(doc.paths).length).toBeGreaterThan(0);
    expect(Object.keys(doc.paths).filter((p) => !p.startsWith('/api/'))).toEqual([]);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/v1/messages/send', '/api/v1/messages/{id}']));
    expect(doc.security).toEqual([{ connectionToken: [] }]);
    // its examples are answers its schemas accept
    const sendAnswer = doc.paths['/api/v1/messages/send'].post.responses['202'].content?.['application/json'] as { example?: unknown };
    expect(sendAnswer.example).toMatchObject({ state: 'queued', ack: 0 });
    expect(validate(doc, 'post', '/api/v1/messages/send', 202, sendAnswer.example)).toEqual([]);
    expect((await fetch(`${gatewayUrl}/api/docs`, { headers: viaIngress })).status).toBe(200);
    expect((await fetch(`${gatewayUrl}/docs/openapi.json`, { headers: viaIngress })).status).toBe(404);
  });
});
