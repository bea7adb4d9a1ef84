import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SocketChannels } from '@wa/contracts';
import { waitFor } from '@wa/testing';
import { Redis } from 'ioredis';
import { FanoutService } from '../../src/fanout/fanout.service.js';
import {
  connect,
  deployment,
  dropDurable,
  newCompanyId,
  newId,
  newUser,
  publish,
  settle,
  startReplica,
  ticketDto,
  whatsappDto,
  type Client,
  type Replica,
} from './harness.js';

describe('realtime-gateway: two replicas', () => {
  const settings = deployment();
  let one: Replica;
  let two: Replica;
  const closed = new Set<Replica>();
  const clients: Client[] = [];
  const close = async (r: Replica) => {
    if (closed.has(r)) return;
    closed.add(r);
    await r.close();
  };
  const leading = (r: Replica) => !closed.has(r) && r.app.get(FanoutService).leading;

  beforeAll(async () => {
    // the same Redis adapter key and the same durable consumer: one deployment of two replicas
    [one, two] = await Promise.all([startReplica(settings), startReplica(settings)]);
  });

  afterAll(async () => {
    for (const c of clients) c.close();
    try {
      await dropDurable((closed.has(one) ? two : one).bus, settings.REALTIME_DURABLE);
    } finally {
      await Promise.all([close(one), close(two)]);
    }
  });

  it('delivers each event exactly once, and in order, to the clients of both replicas', async () => {
    const companyId = newCompanyId();
    const queueId = newId();
    const admin = await connect(one.baseUrl, (await newUser(one, companyId, { profile: 'admin' })).token);
    const agent = await connect(two.baseUrl, (await newUser(two, companyId, { queueIds: [queueId] })).token);
    clients.push(admin, agent);
    expect([leading(one), leading(two)].filter(Boolean)).toHaveLength(1);

    const tickets = Array.from({ length: 20 }, () => ticketDto(companyId, newId(), queueId));
    await Promise.all(tickets.map((t) => publish.ticketUpdated(one.bus, t)));
    const connection = whatsappDto(companyId, newId());
    for (let i = 0; i < 10; i++) await publish.connectionSession(two.bus, { ...connection, retries: i });

    const ticketChannel = SocketChannels.ticket(companyId);
    const sessionChannel = SocketChannels.whatsappSession(companyId);
    await settle(() => [admin, agent].every((c) => c.events(ticketChannel).length >= 20 && c.events(sessionChannel).length >= 10), 1_000);
    for (const c of [admin, agent]) {
      const ids = c.events(ticketChannel).map((e) => e.ticket.id);
      expect(ids).toHaveLength(20);
      expect(new Set(ids)).toEqual(new Set(tickets.map((t) => t.id)));
      // one connection's session updates arrive in the order they were published
      expect(c.events(sessionChannel).map((e) => e.session.retries)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    }
  });

  it('goes on fanning out through the other replica when the consuming one stops', async () => {
    const [gone, stays] = leading(one) ? [one, two] : [two, one];
    const companyId = newCompanyId();
    const client = await connect(stays.baseUrl, (await newUser(stays, companyId, { profile: 'admin' })).token);
    clients.push(client);
    await close(gone);
    await waitFor(async () => leading(stays), { timeoutMs: 10_000 });
    const tickets = Array.from({ length: 5 }, () => ticketDto(companyId, newId(), null));
    for (const t of tickets) await publish.ticketUpdated(stays.bus, t);
    const channel = SocketChannels.ticket(companyId);
    await settle(() => client.events(channel).length >= 5, 500);
    // every one arrives, once (order is kept per ticket; five tickets may go out through different lanes)
    const ids = client.events(channel).map((e) => e.ticket.id);
    expect(ids).toHaveLength(5);
    expect(new Set(ids)).toEqual(new Set(tickets.map((t) => t.id)));
  });

  it('skips what was published while every replica was down longer than the replay window', async () => {
    const late = { ...deployment(), REPLAY_WINDOW_S: '1' };
    const companyId = newCompanyId();
    const first = await startReplica(late);
    await first.close();
    const stale = ticketDto(companyId, newId(), null);
    await publish.ticketUpdated(one.bus.isClosed() ? two.bus : one.bus, stale);
    await new Promise((r) => setTimeout(r, 1_500));
    const again = await startReplica(late);
    try {
      const client = await connect(again.baseUrl, (await newUser(again, companyId, { profile: 'admin' })).token);
      clients.push(client);
      const fresh = ticketDto(companyId, newId(), null);
      await publish.ticketUpdated(again.bus, fresh);
      const channel = SocketChannels.ticket(companyId);
      await settle(() => client.events(channel).length >= 1, 500);
      expect(client.events(channel).map((e) => e.ticket.id)).toEqual([fresh.id]);
    } finally {
      await dropDurable(again.bus, late.REALTIME_DURABLE);
      await again.close();
    }
  });
});

describe('realtime-gateway: a replica alone', () => {
  it('publishes no fan-out to Redis while no other replica listens, and does again from the moment one starts', async () => {
    const settings = deployment();
    const first = await startReplica(settings);
    // a pattern subscription sees what is published on the channel without counting as a replica listening there
    const watcher = new Redis(first.env.REDIS_URL);
    const relayed: string[] = [];
    const clients: Client[] = [];
    let second: Replica | undefined;
    try {
      watcher.on('pmessage', (_pattern: string, _channel: string, message: string) => relayed.push(message));
      await watcher.psubscribe(`${settings.SOCKET_ADAPTER_KEY}-fanout`);
      await waitFor(async () => first.app.get(FanoutService).leading, { timeoutMs: 10_000 });
      const companyId = newCompanyId();
      const early = await connect(first.baseUrl, (await newUser(first, companyId, { profile: 'admin' })).token);
      clients.push(early);
      const channel = SocketChannels.ticket(companyId);
      const before = Array.from({ length: 3 }, () => ticketDto(companyId, newId(), null));
      for (const t of before) await publish.ticketUpdated(first.bus, t);
      await settle(() => early.events(channel).length >= 3, 300);
      expect(early.events(channel)).toHaveLength(3);
      expect(relayed).toEqual([]);

      second = await startReplica(settings);
      const late = await connect(second.baseUrl, (await newUser(second, companyId, { profile: 'admin' })).token);
      clients.push(late);
      const after = Array.from({ length: 3 }, () => ticketDto(companyId, newId(), null));
      for (const t of after) await publish.ticketUpdated(first.bus, t);
      await settle(() => early.events(channel).length >= 6 && late.events(channel).length >= 3, 300);
      expect(new Set(late.events(channel).map((e) => e.ticket.id))).toEqual(new Set(after.map((t) => t.id)));
      expect(early.events(channel)).toHaveLength(6);
      // the new replica's hello, then the batches it was sent
      expect(relayed.length).toBeGreaterThanOrEqual(2);
    } finally {
      for (const c of clients) c.close();
      watcher.disconnect();
      await dropDurable(first.bus, settings.REALTIME_DURABLE);
      await Promise.all([first.close(), second?.close()]);
    }
  });
});
