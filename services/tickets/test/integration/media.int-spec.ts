import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { WaSubjects, type WaInboundMessage, type WaOutboundSend } from '@wa/contracts';
import { mediaForm, mp3File, pdfFile, pngFile, waitFor } from '@wa/testing';
import { randomUUID } from 'node:crypto';
import { mkdtemp, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomNumber, startTickets, TestCompany, ticketOfNumber, type TicketsUnderTest } from './harness.js';

let t: TicketsUnderTest;
let mediaDir: string;

beforeAll(async () => {
  mediaDir = await mkdtemp(join(tmpdir(), 'tickets-media-'));
  t = await startTickets({ MEDIA_DIR: mediaDir });
});

afterAll(async () => {
  await t?.close();
});

async function conversation() {
  const c = new TestCompany(t);
  const admin = await c.user('admin');
  const conn = await c.connection();
  const from = randomNumber();
  await c.inbound(conn.id, from, 'oi');
  const ticket = (await ticketOfNumber(t, admin.token, from)) as { id: number };
  return { c, admin, conn, from, ticket };
}

/** The bytes the API serves at a message's mediaUrl, with the caller's token. */
async function download(
  mediaUrl: string,
  token?: string,
): Promise<{ status: number; type: string | null; disposition: string | null; bytes: Buffer }> {
  const res = await fetch(new URL(mediaUrl, t.baseUrl), { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    disposition: res.headers.get('content-disposition'),
    bytes: Buffer.from(await res.arrayBuffer()),
  };
}

describe('media both ways (POST /messages/{ticketId} multipart, GET /media/...)', () => {
  it('sends a photo with its caption and a document: stored, listed, published for the session with the file, served to the company', async () => {
    const { admin, conn, from, ticket } = await conversation();
    const photo = pngFile({ size: 8 });
    const sub = t.bus.connection.subscribe(WaSubjects.outbound(conn.id), { max: 2 });
    const sent = await t.http.post(`/messages/${ticket.id}`, {
      token: admin.token,
      form: mediaForm(
        [
          { field: 'medias', name: 'foto da peça.png', data: photo, type: 'image/png' },
          { field: 'medias', name: 'orçamento.pdf', data: pdfFile(), type: 'application/pdf' },
        ],
        { body: 'Segue a foto', fromMe: 'true' },
      ),
    });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ fromMe: true, ack: 0, mediaType: 'image', body: 'Segue a foto' });
    expect(sent.body.mediaUrl).toMatch(new RegExp(`^/media/\\d+/[0-9a-f-]{36}/foto_da_peca\\.png$`));

    const outbound: WaOutboundSend[] = [];
    for await (const m of sub) outbound.push(m.json());
    expect(outbound[0]).toMatchObject({
      to: from,
      body: 'Segue a foto',
      media: { mediaType: 'image', mimetype: 'image/png', fileName: 'foto_da_peca.png', size: photo.length },
    });
    expect(outbound[1]).toMatchObject({
      body: 'orcamento.pdf',
      media: { mediaType: 'application', mimetype: 'application/pdf', fileName: 'orcamento.pdf' },
    });

    const list = await t.http.get(`/messages/${ticket.id}`, { token: admin.token });
    const [image, doc] = list.body.messages.slice(-2);
    expect(image).toMatchObject({ mediaType: 'image', mediaUrl: sent.body.mediaUrl });
    expect(doc).toMatchObject({ mediaType: 'application', body: 'orcamento.pdf' });

    const got = await download(image.mediaUrl, admin.token);
    expect(got.status).toBe(200);
    expect(got.type).toBe('image/png');
    expect(got.disposition).toMatch(/^inline/);
    expect(got.bytes.equals(photo)).toBe(true);
    const pdf = await download(doc.mediaUrl, admin.token);
    expect(pdf.type).toBe('application/pdf');
    expect(pdf.bytes.equals(pdfFile())).toBe(true);
  });

  it('serves a file only to signed-in users of its company (another company, by URL: 404; no token: 401)', async () => {
    const { c, admin, ticket } = await conversation();
    const sent = await t.http.post(`/messages/${ticket.id}`, {
      token: admin.token,
      form: mediaForm([{ field: 'medias', name: 'a.png', data: pngFile() }]),
    });
    expect(sent.status).toBe(201);
    const other = await new TestCompany(t).user('admin');
    expect((await download(sent.body.mediaUrl, other.token)).status).toBe(404);
    expect((await download(sent.body.mediaUrl)).status).toBe(401);
    // a key that tries to leave its folder, or names no file
    expect((await download(`/media/${c.companyId}/..%2F..%2Fetc/passwd`, admin.token)).status).toBe(404);
    expect((await download(sent.body.mediaUrl.replace(/\/[^/]+$/, '/b.png'), admin.token)).status).toBe(404);
  });

  it('refuses a file whose bytes are not what its name or type says, an unknown binary, an empty or oversized file, and sends nothing', async () => {
    const { admin, ticket } = await conversation();
    const cases: Array<{ name: string; data: Buffer; type?: string; status: number }> = [
      { name: 'foto.png', data: pdfFile(), type: 'application/pdf', status: 400 }, // a PDF named .png
      { name: 'musica.mp3', data: pngFile(), type: 'audio/mpeg', status: 400 }, // a PNG declared as MP3
      { name: 'programa.exe', data: Buffer.from([0x00, 0x01, 0x02, 0x03, 0xfe, 0xff, 0x00, 0x10]), status: 400 },
      { name: 'vazio.txt', data: Buffer.alloc(0), status: 400 },
      { name: 'grande.png', data: pngFile({ padTo: 16 * 1024 * 1024 + 100 }), type: 'image/png', status: 413 },
    ];
    for (const c of cases) {
      const res = await t.http.post(`/messages/${ticket.id}`, {
        token: admin.token,
        form: mediaForm([
          { field: 'medias', ...c },
          { field: 'medias', name: 'ok.png', data: pngFile() },
        ]),
      });
      expect({ name: c.name, status: res.status, error: res.body.error }).toEqual({
        name: c.name,
        status: c.status,
        error: c.status === 413 ? 'ERR_PAYLOAD_TOO_LARGE' : 'ERR_VALIDATION',
      });
    }
    // a text file and an MP3 are taken
    const text = await t.http.post(`/messages/${ticket.id}`, {
      token: admin.token,
      form: mediaForm([{ field: 'medias', name: 'notas.txt', data: Buffer.from('linha 1\nlinha 2\n') }]),
    });
    expect(text.body).toMatchObject({ mediaType: 'application', body: 'notas.txt' });
    const audio = await t.http.post(`/messages/${ticket.id}`, {
      token: admin.token,
      form: mediaForm([{ field: 'medias', name: 'gravacao.mp3', data: mp3File(), type: 'audio/mpeg' }]),
    });
    expect(audio.body).toMatchObject({ mediaType: 'audio', body: '' });
    // none of the refused sends left a message: only the inbound one, the text and the audio
    const list = await t.http.get(`/messages/${ticket.id}`, { token: admin.token });
    expect(list.body.messages.map((m: { mediaType: string }) => m.mediaType)).toEqual(['chat', 'application', 'audio']);
    // a text message still needs its text
    const empty = await t.http.post(`/messages/${ticket.id}`, { token: admin.token, body: { body: '   ' } });
    expect(empty.status).toBe(400);
    expect(empty.body.details).toEqual([{ field: 'body', messages: ['The message is empty'] }]);
  });

  it('stores a received file named by the session, and the message it answers', async () => {
    const { c, admin, conn, from, ticket } = await conversation();
    const list0 = await t.http.get(`/messages/${ticket.id}`, { token: admin.token });
    const first = list0.body.messages[0];
    // whatsapp-sessions stored the file before publishing (media storage key of the message)
    const waMessageId = `IN${randomUUID().replace(/-/g, '').slice(0, 18).toUpperCase()}`;
    const key = `${c.companyId}/in-${conn.id}-${waMessageId}/${waMessageId}.png`;
    await mkdir(join(mediaDir, ...key.split('/').slice(0, 2)), { recursive: true });
    const photo = pngFile({ size: 4, rgb: [255, 0, 0] });
    await writeFile(join(mediaDir, ...key.split('/')), photo);
    const msg: WaInboundMessage = {
      companyId: c.companyId,
      connectionId: conn.id,
      waMessageId,
      from,
      fromName: 'Maria',
      body: 'olha isso',
      mediaType: 'image',
      fromMe: false,
      isGroup: false,
      timestamp: Date.now(),
      quotedWaMessageId: first.wid,
      media: { key, mimetype: 'image/png', fileName: `${waMessageId}.png`, size: photo.length },
    };
    await t.bus.publish(WaSubjects.inbound(c.companyId, conn.id, from), msg, { msgId: WaSubjects.inboundMsgId(conn.id, waMessageId) });
    const stored = await waitFor(async () => {
      const list = await t.http.get(`/messages/${ticket.id}`, { token: admin.token });
      return list.body.messages.find((m: { wid: string }) => m.wid === waMessageId);
    });
    expect(stored).toMatchObject({ mediaType: 'image', body: 'olha isso', mediaUrl: `/media/${key}`, quotedMsgId: first.id });
    expect((await download(stored.mediaUrl, admin.token)).bytes.equals(photo)).toBe(true);
  });

  it("removes a ticket's files with the ticket, and a contact's with the contact", async () => {
    const { admin, ticket } = await conversation();
    const sent = await t.http.post(`/messages/${ticket.id}`, {
      token: admin.token,
      form: mediaForm([{ field: 'medias', name: 'a.png', data: pngFile() }]),
    });
    expect((await download(sent.body.mediaUrl, admin.token)).status).toBe(200);
    expect((await t.http.delete(`/tickets/${ticket.id}`, { token: admin.token })).status).toBeLessThan(300);
    expect((await download(sent.body.mediaUrl, admin.token)).status).toBe(404);

    const other = await conversation();
    const doc = await t.http.post(`/messages/${other.ticket.id}`, {
      token: other.admin.token,
      form: mediaForm([{ field: 'medias', name: 'b.pdf', data: pdfFile() }]),
    });
    const contactId = (await t.http.get(`/tickets/${other.ticket.id}`, { token: other.admin.token })).body.contactId;
    expect((await t.http.delete(`/contacts/${contactId}`, { token: other.admin.token })).status).toBe(200);
    expect((await download(doc.body.mediaUrl, other.admin.token)).status).toBe(404);
  });
});
