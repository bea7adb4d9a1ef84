import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cappedFetch, PeerAnswerTooLarge, PeerDeadlineExceeded, readPeer, withDeadline } from './capped-read.js';

/** A real peer: `/small` answers 10 bytes, `/flood` streams without end, `/trickle` a byte every 50 ms; each records when its connection closed. */
let server: Server;
let base = '';
const closed: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    res.on('close', () => closed.push(req.url ?? ''));
    if (req.url === '/small') return void res.end('0123456789');
    if (req.url === '/declared') return void res.writeHead(200, { 'content-length': String(10 * 1024 * 1024) }).write('a');
    res.writeHead(200);
    if (req.url === '/flood') {
      const chunk = Buffer.alloc(16 * 1024, 'a');
      const pump = () => {
        while (!res.destroyed) if (!res.write(chunk)) return void res.once('drain', pump);
      };
      return pump();
    }
    const timer = setInterval(() => res.write('.'), 50);
    res.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const closedSoon = async (path: string) => {
  for (let i = 0; i < 40 && !closed.includes(path); i++) await new Promise((r) => setTimeout(r, 25));
  return closed.includes(path);
};

describe('readPeer', () => {
  it('reads an answer under the cap whole', async () => {
    const res = await readPeer(`${base}/small`, { maxBytes: 100, deadlineMs: 2000 });
    expect({ status: res.status, text: res.text() }).toEqual({ status: 200, text: '0123456789' });
  });

  it('aborts an endless answer at the cap (or keeps what it read, when asked to stop), and one declared too large at once', async () => {
    await expect(readPeer(`${base}/flood`, { maxBytes: 64 * 1024, deadlineMs: 5000 })).rejects.toBeInstanceOf(PeerAnswerTooLarge);
    expect(await closedSoon('/flood')).toBe(true);
    const kept = await readPeer(`${base}/flood`, { maxBytes: 64 * 1024, deadlineMs: 5000, overflow: 'stop' });
    expect(kept.body.length).toBe(64 * 1024);
    await expect(readPeer(`${base}/declared`, { maxBytes: 1024, deadlineMs: 5000 })).rejects.toBeInstanceOf(PeerAnswerTooLarge);
  });

  it('aborts an answer that trickles past the deadline, however short its pauses', async () => {
    const started = Date.now();
    await expect(readPeer(`${base}/trickle`, { maxBytes: 1024 * 1024, deadlineMs: 400 })).rejects.toBeInstanceOf(PeerDeadlineExceeded);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(await closedSoon('/trickle')).toBe(true);
  });
});

describe('cappedFetch', () => {
  it('caps the body and puts the deadline on the body too', async () => {
    const f = cappedFetch({ maxBytes: 64 * 1024, deadlineMs: 400 });
    expect(await (await f(`${base}/small`)).text()).toBe('0123456789');
    await expect((await f(`${base}/flood`)).arrayBuffer()).rejects.toBeInstanceOf(PeerAnswerTooLarge);
    const started = Date.now();
    await expect((await f(`${base}/trickle`)).text()).rejects.toBeTruthy();
    expect(Date.now() - started).toBeLessThan(1500);
  });
});

describe('withDeadline', () => {
  it('fails at the deadline and aborts the work’s signal, whether or not the work heeds it', async () => {
    let aborted = false;
    const started = Date.now();
    await expect(
      withDeadline(200, (signal) => {
        signal.addEventListener('abort', () => (aborted = true));
        return new Promise(() => undefined);
      }),
    ).rejects.toBeInstanceOf(PeerDeadlineExceeded);
    expect(aborted).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await withDeadline(1000, async () => 'pronto')).toBe('pronto');
  });
});
