import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { pngFile } from '@wa/testing';
import { mkdtemp, readdir } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newQueue, randomNumber, startTickets, TestCompany, ticketOfNumber, type TicketsUnderTest } from './harness.js';

let t: TicketsUnderTest;
let mediaDir: string;

beforeAll(async () => {
  mediaDir = await mkdtemp(join(tmpdir(), 'tickets-upload-check-'));
  t = await startTickets({ MEDIA_DIR: mediaDir });
});

afterAll(async () => {
  await t?.close();
});

/** Every file under the media directory (all companies). */
async function storedFiles(): Promise<string[]> {
  return (await readdir(mediaDir, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

/**
 * A multipart upload of a photo whose body is held open after its first 512 kB (as a slow or large upload
 * would be): the answer, its status and whether it came while the body was still being sent.
 */
function heldUpload(path: string, token: string): Promise<{ status: number; body: any; whileSending: boolean }> {
  const boundary = `----wa${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="foto.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  const photo = pngFile({ size: 8 });
  const filler = Buffer.alloc(512 * 1024, 0);
  return new Promise((resolve, reject) => {
    let sending = true;
    const req = request(
      `${t.baseUrl}${path}`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'transfer-encoding': 'chunked',
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text || '{}'), whileSending: sending }));
      },
    );
    req.on('error', (err) => (sending ? undefined : reject(err)));
    req.write(Buffer.concat([head, photo, filler]));
    setTimeout(() => {
      sending = false;
      req.end(Buffer.from(`\r\n--${boundary}--\r\n`));
    }, 4000).unref();
  });
}

describe('media uploads are checked against the ticket before any byte is written', () => {
  it("answers a missing ticket, another company's ticket and one the agent cannot see at once, storing no file", async () => {
    const mine = new TestCompany(t);
    const admin = await mine.user('admin');
    const theirs = new TestCompany(t);
    const theirAdmin = await theirs.user('admin');
    const theirConn = await theirs.connection();
    const from = randomNumber();
    await theirs.inbound(theirConn.id, from, 'oi');
    const theirTicket = (await ticketOfNumber(t, theirAdmin.token, from)) as { id: number };
    // an agent of their company on another queue than the ticket's
    const queue = await newQueue(t, theirAdmin.token);
    const agent = await theirs.user('user', [queue.id]);
    await t.http.put(`/tickets/${theirTicket.id}`, { token: theirAdmin.token, body: { status: 'open', userId: theirAdmin.id } });

    const before = await storedFiles();
    const missing = await heldUpload('/messages/2000000000', admin.token);
    expect({ status: missing.status, error: missing.body.error, whileSending: missing.whileSending }).toEqual({
      status: 404,
      error: 'ERR_NO_TICKET_FOUND',
      whileSending: true,
    });
    const foreign = await heldUpload(`/messages/${theirTicket.id}`, admin.token);
    expect({ status: foreign.status, error: foreign.body.error, whileSending: foreign.whileSending }).toEqual({
      status: 404,
      error: 'ERR_NO_TICKET_FOUND',
      whileSending: true,
    });
    const unseen = await heldUpload(`/messages/${theirTicket.id}`, agent.token);
    expect({ status: unseen.status, error: unseen.body.error, whileSending: unseen.whileSending }).toEqual({
      status: 403,
      error: 'ERR_NO_PERMISSION',
      whileSending: true,
    });
    expect(await storedFiles()).toEqual(before);
    // the ticket's own company still sends its photo
    const sent = await heldUpload(`/messages/${theirTicket.id}`, theirAdmin.token);
    expect(sent.status).toBe(201);
    expect((await storedFiles()).length).toBe(before.length + 1);
  });
});
