import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { runMigrations } from '@wa/database';
import type { MessageDto, SandboxOutboxItem } from '@wa/contracts';
import { HttpClient, mediaForm, mp3File, randomIp, TEST_DATABASE_URL, waitFor } from '@wa/testing';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authDatabase } from '../../services/auth/src/database/data-source.js';
import { ticketsDatabase } from '../../services/tickets/src/database/data-source.js';
import { whatsappDatabase } from '../../services/whatsapp-sessions/src/database/data-source.js';
import { startMessagePath, stopProcesses, type ServiceProcess } from './processes.js';
import { Product } from './product.js';

/**
 * More message types (issue 45 §4) through the whole message path (gateway, tickets, whatsapp-sessions with the sandbox
 * phone): the public API sends a voice note (an MP3 transcoded to OGG/Opus, on the phone as a ptt audio), a location and
 * a contact card; bad coordinates and an empty contact are refused; a customer's location, contact card and reaction
 * reach the ticket as such, and an agent's reaction reaches the phone.
 */

const running: ServiceProcess[] = [];
let http: HttpClient;
let product: Product;

beforeAll(async () => {
  for (const db of [authDatabase, ticketsDatabase, whatsappDatabase]) await runMigrations(db(TEST_DATABASE_URL));
  const services = await startMessagePath({});
  running.push(...Object.values(services));
  const gateway = services['messaging-gateway'];
  http = new HttpClient(gateway.url, { 'x-forwarded-for': randomIp() });
  product = new Product(http, gateway.url);
});

afterAll(async () => {
  await stopProcesses(running);
});

async function companyWithApi(name: string) {
  const a = await product.newCompany(name);
  const queue = await http.post('/queue', { token: a.token, body: { name: 'Atendimento', color: `#${randomBytes(3).toString('hex')}` } });
  const conn = await product.connectedSandbox(a.token, queue.body.id);
  const apiToken = `api-${randomBytes(16).toString('hex')}`;
  expect((await http.put(`/whatsapp/${conn.id}`, { token: a.token, body: { token: apiToken } })).status).toBe(200);
  const outbox = async () =>
    (await http.get(`/whatsappsession/${conn.id}/sandbox/outbox`, { token: a.token })).body.items as SandboxOutboxItem[];
  const messages = async (ticketId: number) => (await http.get(`/messages/${ticketId}`, { token: a.token })).body.messages as MessageDto[];
  return { ...a, conn, apiToken, outbox, messages };
}

const number = () => `5511${(900_000_000 + Math.floor(Math.random() * 99_999_999)).toString()}`;

describe('message types through the public API and the sandbox phone', () => {
  it('sends a voice note (OGG/Opus, ptt), a location and a contact card; refuses bad coordinates and an empty contact', async () => {
    const a = await companyWithApi('Tipos API');
    const to = number();
    const voice = await http.post('/api/v1/messages/send', {
      token: a.apiToken,
      form: mediaForm([{ field: 'medias', name: 'recado.mp3', data: mp3File(), type: 'audio/mpeg' }], { number: to, voice: 'true' }),
    });
    expect(voice.status).toBe(202);
    expect(voice.body).toMatchObject({ mediaType: 'audio', state: 'queued' });
    const onPhone = await waitFor(async () => (await a.outbox()).find((i) => i.to === to && i.media));
    expect(onPhone.media).toMatchObject({ mimetype: 'audio/ogg; codecs=opus', ptt: true });

    // what the agent hears in the console is that voice note: Opus in OGG
    const ticketId = voice.body.ticketId as number;
    const stored = (await a.messages(ticketId)).find((m) => m.id === voice.body.id) as MessageDto;
    expect(stored).toMatchObject({ voice: true, mediaType: 'audio' });
    const file = await fetch(new URL(stored.mediaUrl as string, http.baseUrl), { headers: { authorization: `Bearer ${a.token}` } });
    expect(file.status).toBe(200);
    const dir = await mkdtemp(join(tmpdir(), 'e2e-voice-'));
    try {
      const path = join(dir, 'voz.ogg');
      await writeFile(path, Buffer.from(await file.arrayBuffer()));
      const probed = JSON.parse(
        execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name,channels:format=format_name', '-of', 'json', path], {
          encoding: 'utf8',
        }),
      ) as { streams: Array<{ codec_name: string; channels: number }>; format: { format_name: string } };
      expect(probed).toMatchObject({ streams: [{ codec_name: 'opus', channels: 1 }], format: { format_name: 'ogg' } });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }

    const place = await http.post('/api/v1/messages/send', {
      token: a.apiToken,
      body: { number: to, location: { latitude: -23.5613, longitude: -46.6565, name: 'MASP', address: 'Av. Paulista, 1578' } },
    });
    expect(place.status).toBe(202);
    const card = await http.post('/api/v1/messages/send', {
      token: a.apiToken,
      body: { number: to, contact: { name: 'Suporte', number: '551140001234' } },
    });
    expect(card.status).toBe(202);
    await waitFor(async () => (await a.outbox()).filter((i) => i.to === to).length >= 3);
    const items = await a.outbox();
    expect(items.find((i) => i.location)).toMatchObject({
      to,
      location: { latitude: -23.5613, longitude: -46.6565, name: 'MASP', address: 'Av. Paulista, 1578' },
    });
    expect(items.find((i) => i.contact)?.contact).toMatchObject({ name: 'Suporte' });
    expect(items.find((i) => i.contact)?.contact?.vcard).toContain('waid=551140001234');

    const before = (await a.outbox()).length;
    for (const [fields, field] of [
      [{ location: { latitude: -91, longitude: 10 } }, 'location.latitude'],
      [{ location: { latitude: 10, longitude: 200 } }, 'location.longitude'],
      [{ contact: { name: ' ', number: '551140001234' } }, 'contact.name'],
    ] as const) {
      const r = await http.post('/api/v1/messages/send', { token: a.apiToken, body: { number: to, ...fields } });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ error: 'ERR_VALIDATION' });
      expect(JSON.stringify(r.body)).toContain(field);
    }
    await new Promise((r) => setTimeout(r, 500));
    expect((await a.outbox()).length).toBe(before);
  });

  it("a customer's location, contact card and reaction reach the ticket as such; an agent's reaction reaches the phone", async () => {
    const a = await companyWithApi('Tipos Cliente');
    const from = number();
    const inbound = (body: Record<string, unknown>) =>
      http.post(`/whatsappsession/${a.conn.id}/sandbox/inbound`, { token: a.token, body: { from, name: 'Bia', ...body } });
    const first = await inbound({ body: 'Olá, segue onde estou' });
    expect(first.status).toBe(202);
    const ticket = await waitFor(
      async () =>
        (await http.get(`/tickets?showAll=true&searchParam=${from}`, { token: a.token })).body.tickets?.[0] as { id: number } | undefined,
    );
    expect((await inbound({ location: { latitude: -22.9519, longitude: -43.2105, name: 'Cristo Redentor' } })).status).toBe(202);
    expect(
      (await inbound({ vcards: ['BEGIN:VCARD\nVERSION:3.0\nFN:Carlos\nTEL;type=CELL;waid=5521988887777:+55 21 98888-7777\nEND:VCARD'] }))
        .status,
    ).toBe(202);
    expect((await inbound({ reaction: { waMessageId: first.body.id, emoji: '🙏' } })).status).toBe(202);

    const listed = await waitFor(async () => {
      const all = await a.messages(ticket.id);
      return all.length >= 3 && all.find((m) => m.wid === first.body.id)?.reactions?.length ? all : undefined;
    });
    // the reaction is on the first message, not a message of its own
    expect(listed).toHaveLength(3);
    expect(listed.find((m) => m.wid === first.body.id)?.reactions).toEqual([{ emoji: '🙏', fromMe: false, from }]);
    expect(listed.find((m) => m.mediaType === 'locationMessage')).toMatchObject({
      location: { latitude: -22.9519, longitude: -43.2105, name: 'Cristo Redentor' },
    });
    expect(listed.find((m) => m.mediaType === 'vcard')).toMatchObject({ contacts: [{ name: 'Carlos', numbers: ['5521988887777'] }] });

    const place = listed.find((m) => m.mediaType === 'locationMessage') as MessageDto;
    // the agent accepts the ticket and reacts to the customer's place
    expect((await http.put(`/tickets/${ticket.id}`, { token: a.token, body: { status: 'open', userId: a.user.id } })).status).toBe(200);
    const reacted = await http.post(`/messages/${place.id}/react`, { token: a.token, body: { emoji: '❤️' } });
    expect(reacted.status).toBe(200);
    expect(reacted.body.reactions).toEqual([{ emoji: '❤️', fromMe: true, from: '' }]);
    const sent = await waitFor(async () => (await a.outbox()).find((i) => i.reaction));
    expect(sent).toMatchObject({ to: from, reaction: { waMessageId: place.wid, emoji: '❤️' } });
  });
});
