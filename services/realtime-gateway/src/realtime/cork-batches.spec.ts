import { afterEach, describe, expect, it } from '@jest/globals';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo, Socket as TcpSocket } from 'node:net';
import { Server, type Socket } from 'socket.io';
import { io as connectClient, type Socket as ClientSocket } from 'socket.io-client';
import { corkBatches } from './cork-batches.js';

/** A socket.io server (websocket only, as realtime-gateway runs it) and one client connected to it over TCP. */
async function pair(cork: boolean): Promise<{ server: Socket; client: ClientSocket; writes: () => number; close: () => Promise<void> }> {
  const http: HttpServer = createServer();
  const io = new Server(http, { transports: ['websocket'] });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const connected = new Promise<Socket>((resolve) => io.on('connection', resolve));
  const client = connectClient(`http://127.0.0.1:${(http.address() as AddressInfo).port}`, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
  });
  const server = await connected;
  if (cork) corkBatches(server.conn);
  // the writes the server's TCP socket makes to this client (one system call each)
  const tcp = (server.conn as unknown as { transport: { socket: { _socket: TcpSocket & { _write: unknown; _writev: unknown } } } })
    .transport.socket._socket;
  let writes = 0;
  for (const name of ['_write', '_writev'] as const) {
    const original = tcp[name] as (...args: unknown[]) => unknown;
    tcp[name] = (...args: unknown[]) => {
      writes++;
      return original.apply(tcp, args);
    };
  }
  return {
    server,
    client,
    writes: () => writes,
    close: async () => {
      client.close();
      await io.close();
    },
  };
}

/** Emits `count` events at once to the client and resolves with what it received, once it has them all. */
async function burst(server: Socket, client: ClientSocket, count: number): Promise<number[]> {
  const got: number[] = [];
  const all = new Promise<void>((resolve) =>
    client.on('n', (n: number) => {
      got.push(n);
      if (got.length === count) resolve();
    }),
  );
  for (let i = 0; i < count; i++) server.emit('n', i, 'x'.repeat(200));
  await all;
  return got;
}

describe('corkBatches', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('sends a burst of events to a client in order and whole, in a few writes instead of one per event', async () => {
    const p = await pair(true);
    close = p.close;
    const got = await burst(p.server, p.client, 200);
    expect(got).toEqual(Array.from({ length: 200 }, (_, i) => i));
    // the first event leaves alone; the rest waited together for it and leave in one write
    expect(p.writes()).toBeLessThanOrEqual(4);
    // and later events still arrive: an event alone after the burst
    const again = await burst(p.server, p.client, 1);
    expect(again).toEqual([0]);
  });

  it('without it, engine.io writes each event of the burst on its own (what corkBatches saves)', async () => {
    const p = await pair(false);
    close = p.close;
    const got = await burst(p.server, p.client, 200);
    expect(got).toHaveLength(200);
    expect(p.writes()).toBeGreaterThanOrEqual(150);
  });

  it('leaves a connection whose transport it does not know as it is', () => {
    const transport = { send: () => undefined };
    const conn = { transport };
    corkBatches(conn);
    expect(conn.transport.send).toBe(transport.send);
    expect(() => corkBatches({})).not.toThrow();
  });
});
