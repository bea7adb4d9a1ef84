import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { signApiIdentity } from '@wa/auth';
import { WaSubjects, type MessageDto, type WaInboundMessage, type WaOutboundSend } from '@wa/contracts';
import { mediaForm, mp3File, pngFile, TEST_JWT_SECRET, TEST_NATS_URL, waitFor } from '@wa/testing';
import { connect, type NatsConnection, type Subscription } from 'nats';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomNumber, startTickets, TestCompany, ticketOfNumber, type TicketsUnderTest } from './harness.js';

/**
 * More message types (issue 45 §4) through tickets: voice notes recorded in the console or sent through the public API
 * (transcoded to OGG/Opus by ffmpeg, sent with `voice`), locations, contact cards and reactions received (shown as such,
 * a reaction on the message it reacts to), locations and contact cards sent through the public API, reactions from the
 * console.
 */

let t: TicketsUnderTest;
let nc: NatsConnection;
let mediaDir: string;

beforeAll(async () => {
  mediaDir = await mkdtemp(join(tmpdir(), 'tickets-types-'));
  t = await startTickets({ MEDIA_DIR: mediaDir });
  nc = await connect({ servers: TEST_NATS_URL });
});

afterAll(async () => {
  await nc?.close();
  await t?.close();
});

function listen<T>(sub: Subscription): T[] {
  const got: T[] = [];
  void (async () => {
    for await (const m of sub) got.push(m.json<T>());
  })();
  return got;
}

async function conversation() {
  const c = new TestCompany(t);
  const admin = await c.user('admin');
  const conn = await c.connection();
  const from = randomNumber();
  const firstId = await c.inbound(conn.id, from, 'oi');
  const ticket = (await ticketOfNumber(t, admin.token, from)) as { id: number };
  // every send of the connection, paced (public API) or not
  const sends = [...[WaSubjects.outbound(conn.id), WaSubjects.outboundPaced(conn.id)].map((s) => listen<WaOutboundSend>(nc.subscribe(s)))];
  const sent = () => sends.flat();
  const api = `Bearer ${signApiIdentity({ companyId: c.companyId, connectionId: conn.id }, TEST_JWT_SECRET)}`;
  return { c, admin, conn, from, ticket, firstId, sent, api };
}

/** A received message of the customer's, as whatsapp-sessions publishes it. */
async function inbound(c: TestCompany, connectionId: number, from: string, fields: Partial<WaInboundMessage>): Promise<string> {
  const waMessageId = fields.waMessageId ?? `IN${randomUUID().replace(/-/g, '').slice(0, 18).toUpperCase()}`;
  const msg: WaInboundMessage = {
    companyId: c.companyId,
    connectionId,
    waMessageId,
    from,
    fromName: 'Maria',
    body: '',
    mediaType: 'chat',
    fromMe: false,
    isGroup: false,
    timestamp: Date.now(),
    ...fields,
  };
  await t.bus.publish(WaSubjects.inbound(c.companyId, connectionId, from), msg, {
    msgId: WaSubjects.inboundMsgId(connectionId, waMessageId),
  });
  return waMessageId;
}

async function messages(token: string, ticketId: number): Promise<MessageDto[]> {
  return (await t.http.get(`/messages/${ticketId}`, { token })).body.messages as MessageDto[];
}

describe('voice notes', () => {
  it('an audio recorded in the console (voice=true) is stored as an OGG/Opus voice note and sent with voice: true', async () => {
    const { admin, ticket, from, sent } = await conversation();
    const res = await t.http.post(`/messages/${ticket.id}`, {
      token: admin.token,
      form: mediaForm([{ field: 'medias', name: 'gravacao.mp3', data: mp3File(), type: 'audio/mpeg' }], { voice: 'true' }),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ mediaType: 'audio', voice: true, fromMe: true });
    expect(res.body.mediaUrl).toMatch(/\.ogg$/);

    const send = await waitFor(async () => sent().find((s) => s.messageId === res.body.id));
    expect(send).toMatchObject({ to: from, media: { mediaType: 'audio', mimetype: 'audio/ogg; codecs=opus', voice: true } });
    expect(send.media?.fileName).toMatch(/\.ogg$/);

    // the stored bytes are what WhatsApp plays as a voice note: Opus in OGG, one channel
    const file = await fetch(new URL(res.body.mediaUrl as string, t.baseUrl), { headers: { authorization: `Bearer ${admin.token}` } });
    expect(file.status).toBe(200);
    const bytes = Buffer.from(await file.arrayBuffer());
    const path = join(mediaDir, `${randomUUID()}.ogg`);
    await writeFile(path, bytes);
    const probed = JSON.parse(
      execFileSync(
        'ffprobe',
        ['-v', 'error', '-show_entries', 'stream=codec_name,channels,sample_rate:format=format_name', '-of', 'json', path],
        {
          encoding: 'utf8',
        },
      ),
    ) as { streams: Array<{ codec_name: string; channels: number; sample_rate: string }>; format: { format_name: string } };
    expect(probed.format.format_name).toBe('ogg');
    expect(probed.streams).toHaveLength(1);
    expect(probed.streams[0]).toMatchObject({ codec_name: 'opus', channels: 1, sample_rate: '48000' });

    const listed = await messages(admin.token, ticket.id);
    expect(listed.find((m) => m.id === res.body.id)).toMatchObject({ voice: true, mediaType: 'audio' });
  });

  it('a voice note that is not one audio file is refused with ERR_VALIDATION, nothing sent', async () => {
    const { admin, ticket, sent } = await conversation();
    const picture = await t.http.post(`/messages/${ticket.id}`, {
      token: admin.token,
      form: mediaForm([{ field: 'medias', name: 'foto.png', data: pngFile({ size: 8 }), type: 'image/png' }], { voice: 'true' }),
    });
    expect(picture.status).toBe(400);
    expect(picture.body).toMatchObject({ error: 'ERR_VALIDATION' });
    expect(JSON.stringify(picture.body)).toContain('audio');
    // audio by its first bytes, but nothing ffmpeg can read
    const broken = Buffer.concat([mp3File(1).subarray(0, 14), Buffer.alloc(64, 7)]);
    const unreadable = await t.http.post(`/messages/${ticket.id}`, {
      token: admin.token,
      form: mediaForm([{ field: 'medias', name: 'gravacao.mp3', data: broken, type: 'audio/mpeg' }], { voice: 'true' }),
    });
    expect(unreadable.status).toBe(400);
    expect(unreadable.body).toMatchObject({ error: 'ERR_VALIDATION' });
    const two = await t.http.post(`/messages/${ticket.id}`, {
      token: admin.token,
      form: mediaForm(
        [
          { field: 'medias', name: 'a.mp3', data: mp3File(), type: 'audio/mpeg' },
          { field: 'medias', name: 'b.mp3', data: mp3File(), type: 'audio/mpeg' },
        ],
        { voice: 'true' },
      ),
    });
    expect(two.status).toBe(400);
    expect(two.body).toMatchObject({ error: 'ERR_VALIDATION' });
    await new Promise((r) => setTimeout(r, 300));
    expect(sent()).toHaveLength(0);
  });

  it('the public API sends a voice note too (a file + voice), transcoded the same way', async () => {
    const { from, api, sent } = await conversation();
    const res = await t.http.post('/api/v1/messages/send', {
      headers: { authorization: api },
      form: mediaForm([{ field: 'medias', name: 'audio.mp3', data: mp3File(), type: 'audio/mpeg' }], { number: from, voice: 'true' }),
    });
    expect(res.status).toBe(202);
    const send = await waitFor(async () => sent().find((s) => s.messageId === res.body.id));
    expect(send.media).toMatchObject({ mediaType: 'audio', mimetype: 'audio/ogg; codecs=opus', voice: true });
  });

  it('a voice note received (voice) is listed as one', async () => {
    const { c, admin, conn, from, ticket } = await conversation();
    const id = await inbound(c, conn.id, from, { mediaType: 'audio', voice: true });
    const m = await waitFor(async () => (await messages(admin.token, ticket.id)).find((x) => x.wid === id));
    expect(m).toMatchObject({ mediaType: 'audio', voice: true, fromMe: false });
  });
});

describe('locations, contact cards and reactions received', () => {
  it('a location and a contact card are stored and listed as such; older clients keep body and mediaType', async () => {
    const { c, admin, conn, from, ticket } = await conversation();
    const place = await inbound(c, conn.id, from, {
      mediaType: 'locationMessage',
      body: '-23.5613,-46.6565',
      location: { latitude: -23.5613, longitude: -46.6565, name: 'MASP', address: 'Av. Paulista, 1578' },
    });
    const card = await inbound(c, conn.id, from, {
      mediaType: 'vcard',
      body: 'BEGIN:VCARD\nVERSION:3.0\nFN:João Silva\nTEL;type=CELL;waid=5511912345678:+55 11 91234-5678\nEND:VCARD',
      contacts: [{ name: 'João Silva', numbers: ['5511912345678'] }],
    });
    const listed = await waitFor(async () => {
      const all = await messages(admin.token, ticket.id);
      return all.some((m) => m.wid === card) && all.some((m) => m.wid === place) ? all : undefined;
    });
    expect(listed.find((m) => m.wid === place)).toMatchObject({
      mediaType: 'locationMessage',
      body: '-23.5613,-46.6565',
      location: { latitude: -23.5613, longitude: -46.6565, name: 'MASP', address: 'Av. Paulista, 1578' },
    });
    expect(listed.find((m) => m.wid === card)).toMatchObject({
      mediaType: 'vcard',
      contacts: [{ name: 'João Silva', numbers: ['5511912345678'] }],
    });
    // a plain text carries none of them
    expect(listed.find((m) => m.body === 'oi')).not.toHaveProperty('location');
  });

  it('a reaction is kept on the message it reacts to (no message of its own), replaced by the next, removed by an empty emoji', async () => {
    const { c, admin, conn, from, ticket, firstId } = await conversation();
    const updates = listen<{ message: MessageDto }>(nc.subscribe(`message.updated.${c.companyId}.${ticket.id}`));
    await inbound(c, conn.id, from, { body: '❤️', reaction: { waMessageId: firstId, emoji: '❤️' } });
    const reacted = await waitFor(async () =>
      (await messages(admin.token, ticket.id)).find((m) => m.wid === firstId && m.reactions?.length),
    );
    expect(reacted.reactions).toEqual([{ emoji: '❤️', fromMe: false, from }]);
    await waitFor(async () => updates.find((u) => u.message?.reactions?.length));
    // the conversation still holds the one message: the reaction is none
    expect((await messages(admin.token, ticket.id)).map((m) => m.wid)).toEqual([firstId]);

    await inbound(c, conn.id, from, { body: '👍', reaction: { waMessageId: firstId, emoji: '👍' } });
    await waitFor(async () => (await messages(admin.token, ticket.id)).find((m) => m.wid === firstId && m.reactions?.[0]?.emoji === '👍'));
    expect((await messages(admin.token, ticket.id))[0]?.reactions).toHaveLength(1);

    await inbound(c, conn.id, from, { body: '', reaction: { waMessageId: firstId, emoji: '' } });
    const cleared = await waitFor(async () =>
      (await messages(admin.token, ticket.id)).find((m) => m.wid === firstId && !m.reactions?.length),
    );
    expect(cleared.reactions).toEqual([]);
    expect((await messages(admin.token, ticket.id)).map((m) => m.wid)).toEqual([firstId]);
  });
});

describe('reactions from the console (POST /messages/{id}/react)', () => {
  it('sends the reaction to WhatsApp and shows it on the message; an empty emoji takes it away', async () => {
    const { admin, ticket, firstId, from, sent } = await conversation();
    const [first] = await messages(admin.token, ticket.id);
    const res = await t.http.post(`/messages/${first?.id}/react`, { token: admin.token, body: { emoji: '👍' } });
    expect(res.status).toBe(200);
    expect(res.body.reactions).toEqual([{ emoji: '👍', fromMe: true, from: '' }]);
    const send = await waitFor(async () => sent().find((s) => s.reaction));
    expect(send).toMatchObject({ to: from, reaction: { waMessageId: firstId, fromMe: false, emoji: '👍' } });
    expect(send.waMessageId).not.toBe(firstId);

    const removed = await t.http.post(`/messages/${first?.id}/react`, { token: admin.token, body: { emoji: '' } });
    expect(removed.status).toBe(200);
    expect(removed.body.reactions).toEqual([]);
    await waitFor(async () => sent().find((s) => s.reaction?.emoji === ''));
    // reactions are no messages
    expect((await messages(admin.token, ticket.id)).map((m) => m.wid)).toEqual([firstId]);
  });

  it('refuses what is not one emoji (ERR_VALIDATION) and a message it does not know (ERR_NO_MESSAGE_FOUND)', async () => {
    const { admin, ticket } = await conversation();
    const [first] = await messages(admin.token, ticket.id);
    for (const emoji of ['ok', '👍👍', 'a👍']) {
      const res = await t.http.post(`/messages/${first?.id}/react`, { token: admin.token, body: { emoji } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'ERR_VALIDATION' });
    }
    const unknown = await t.http.post('/messages/999999999/react', { token: admin.token, body: { emoji: '👍' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: 'ERR_NO_MESSAGE_FOUND' });
  });
});

describe('locations and contact cards through the public API', () => {
  it('sends a location and a contact card: stored as such, sent with their content', async () => {
    const { admin, ticket, from, api, sent } = await conversation();
    const place = await t.http.post('/api/v1/messages/send', {
      headers: { authorization: api },
      body: { number: from, location: { latitude: -22.9519, longitude: -43.2105, name: 'Cristo Redentor' } },
    });
    expect(place.status).toBe(202);
    const card = await t.http.post('/api/v1/messages/send', {
      headers: { authorization: api },
      body: { number: from, contact: { name: 'Suporte', number: '+55 (11) 4000-1234' } },
    });
    expect(card.status).toBe(202);
    const placeSend = await waitFor(async () => sent().find((s) => s.messageId === place.body.id));
    expect(placeSend).toMatchObject({
      location: { latitude: -22.9519, longitude: -43.2105, name: 'Cristo Redentor' },
      body: '-22.9519,-43.2105',
    });
    const cardSend = await waitFor(async () => sent().find((s) => s.messageId === card.body.id));
    expect(cardSend).toMatchObject({ contact: { name: 'Suporte', number: '551140001234' } });
    expect(cardSend.body).toContain('waid=551140001234');

    const listed = await messages(admin.token, ticket.id);
    expect(listed.find((m) => m.id === place.body.id)).toMatchObject({
      mediaType: 'locationMessage',
      location: { latitude: -22.9519, longitude: -43.2105, name: 'Cristo Redentor' },
    });
    expect(listed.find((m) => m.id === card.body.id)).toMatchObject({
      mediaType: 'vcard',
      contacts: [{ name: 'Suporte', numbers: ['551140001234'] }],
    });
  });

  it('refuses bad coordinates and an empty contact with ERR_VALIDATION and a clear message', async () => {
    const { from, api } = await conversation();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ location: { latitude: 91, longitude: 0 } }, 'location.latitude'],
      [{ location: { latitude: 10, longitude: -181 } }, 'location.longitude'],
      [{ location: { latitude: 'x', longitude: 2 } }, 'location.latitude'],
      [{ contact: { name: '', number: '5511912345678' } }, 'contact.name'],
      [{ contact: { name: 'Ana', number: '12' } }, 'contact.number'],
      [{ contact: {} }, 'contact.name'],
    ];
    for (const [fields, field] of cases) {
      const res = await t.http.post('/api/v1/messages/send', { headers: { authorization: api }, body: { number: from, ...fields } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'ERR_VALIDATION' });
      expect(JSON.stringify(res.body)).toContain(field);
    }
  });
});

describe('locations and contact cards from the console (POST /messages/{ticketId})', () => {
  it('an agent sends a place and a contact card into the ticket: stored as such, sent with their content; bad ones refused', async () => {
    const { admin, ticket, sent } = await conversation();
    // the agent's ticket: accepted first (a pending ticket takes no reply)
    expect((await t.http.put(`/tickets/${ticket.id}`, { token: admin.token, body: { status: 'open' } })).status).toBe(200);
    const place = await t.http.post(`/messages/${ticket.id}`, {
      token: admin.token,
      body: { location: { latitude: -23.5874, longitude: -46.6576, name: 'Parque Ibirapuera' } },
    });
    expect(place.status).toBe(201);
    expect(place.body).toMatchObject({
      mediaType: 'locationMessage',
      location: { latitude: -23.5874, longitude: -46.6576, name: 'Parque Ibirapuera' },
    });
    const card = await t.http.post(`/messages/${ticket.id}`, {
      token: admin.token,
      body: { contact: { name: 'Financeiro', number: '55 11 4000-5678' } },
    });
    expect(card.status).toBe(201);
    expect(card.body).toMatchObject({ mediaType: 'vcard', contacts: [{ name: 'Financeiro', numbers: ['551140005678'] }] });
    const placeSend = await waitFor(async () => sent().find((s) => s.messageId === place.body.id));
    expect(placeSend).toMatchObject({ location: { latitude: -23.5874, longitude: -46.6576, name: 'Parque Ibirapuera' } });
    const cardSend = await waitFor(async () => sent().find((s) => s.messageId === card.body.id));
    expect(cardSend).toMatchObject({ contact: { name: 'Financeiro', number: '551140005678' } });

    for (const [body, field] of [
      [{ location: { latitude: -100, longitude: 0 } }, 'location.latitude'],
      [{ contact: { name: 'Sem número' } }, 'contact.number'],
      [{ location: { latitude: 1, longitude: 1 }, contact: { name: 'A', number: '5511912345678' } }, 'location'],
    ] as const) {
      const res = await t.http.post(`/messages/${ticket.id}`, { token: admin.token, body });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'ERR_VALIDATION' });
      expect(JSON.stringify(res.body)).toContain(field);
    }
    // two sends, no more
    expect((await messages(admin.token, ticket.id)).filter((m) => m.fromMe)).toHaveLength(2);
  });
});
