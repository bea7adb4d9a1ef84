import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AckPolicy, type JetStreamManager } from 'nats';
import { EventBus, NoRespondersError, deleteDurable, request, serve } from '../src/index.js';
import { SERVERS, memLogger, uniq } from './helpers.js';

describe('rpc: request/reply and durable resets over the bus connection', () => {
  const u = uniq();
  let bus: EventBus;
  let jsm: JetStreamManager;
  /** core subjects no stream captures (a stream would answer a request with its publish ack) */
  const core = (rest: string) => `rpc${u.sfx}.${rest}`;

  beforeAll(async () => {
    bus = await EventBus.connect({ servers: SERVERS, name: 'test-rpc', streams: [u.stream], logger: memLogger() });
    jsm = await bus.connection.jetstreamManager();
  });

  afterAll(async () => {
    await jsm.streams.delete(u.stream.name).catch(() => undefined);
    await bus.close();
  });

  it("answers a request with the handler's result, as JSON, until the server stops serving", async () => {
    const subject = core('echo');
    const stop = serve(bus, subject, async (payload) => ({ got: payload, at: 'server' }));
    try {
      await bus.connection.flush();
      expect(await request(bus, subject, { n: 7, s: 'olá' }, { timeoutMs: 2000 })).toEqual({ got: { n: 7, s: 'olá' }, at: 'server' });
    } finally {
      stop();
    }
    await bus.connection.flush();
    await expect(request(bus, subject, {}, { timeoutMs: 2000 })).rejects.toBeInstanceOf(NoRespondersError);
  });

  it('replies to a malformed request and to a failed handler as told, and otherwise lets the request time out', async () => {
    const told = core('told');
    const silent = core('silent');
    const stops = [
      serve(bus, told, () => Promise.reject(new Error('boom')), {
        malformed: () => 'malformed',
        failed: (err) => `failed: ${(err as Error).message}`,
      }),
      serve(bus, silent, () => Promise.reject(new Error('boom'))),
    ];
    try {
      await bus.connection.flush();
      expect(await request(bus, told, 1, { timeoutMs: 2000 })).toBe('failed: boom');
      const raw = await bus.connection.request(told, new TextEncoder().encode('{not json'), { timeout: 2000 });
      expect(JSON.parse(new TextDecoder().decode(raw.data))).toBe('malformed');
      const timedOut = await request(bus, silent, 1, { timeoutMs: 300 }).catch((err: unknown) => err);
      expect(timedOut).toBeInstanceOf(Error);
      expect(timedOut).not.toBeInstanceOf(NoRespondersError);
    } finally {
      for (const stop of stops) stop();
    }
  });

  it('deletes a durable, and answers false for one that does not exist', async () => {
    const durable = u.durable('rpc');
    await jsm.consumers.add(u.stream.name, { durable_name: durable, ack_policy: AckPolicy.Explicit });
    expect(await deleteDurable(bus, u.stream.name, durable)).toBe(true);
    await expect(jsm.consumers.info(u.stream.name, durable)).rejects.toThrow();
    expect(await deleteDurable(bus, u.stream.name, durable)).toBe(false);
    await expect(deleteDurable(bus, 'NO_SUCH_STREAM_RPC', durable)).rejects.toThrow();
  });
});
