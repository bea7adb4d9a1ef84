import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SocketChannels } from '@wa/contracts';
import {
  connect,
  deployment,
  dropDurable,
  newCompanyId,
  newUser,
  putUser,
  session,
  startReplica,
  TicketsStub,
  type Client,
  type Replica,
} from './harness.js';

/** Resolves with the reason once the client is disconnected by the server. */
function cut(client: Client): Promise<{ reason: string }> {
  return new Promise((resolve) => client.socket.once('disconnect', (reason) => resolve({ reason })));
}

const within = async (p: Promise<{ reason: string }>, ms: number) =>
  Promise.race([p, new Promise<{ reason: string }>((resolve) => setTimeout(() => resolve({ reason: 'still connected' }), ms))]);

describe('realtime-gateway: a socket ends when access ends', () => {
  let stub: TicketsStub;
  let settings: ReturnType<typeof deployment>;
  let gw: Replica;
  const clients: Client[] = [];
  const open = async (token: string) => {
    const c = await connect(gw.baseUrl, token);
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    stub = await new TicketsStub().start();
    settings = deployment(stub.url);
    gw = await startReplica(settings);
  });

  afterAll(async () => {
    for (const c of clients) c.close();
    try {
      await dropDurable(gw.bus, settings.REALTIME_DURABLE);
    } finally {
      await gw.close();
      await stub.stop();
    }
  });

  it('on logout (its session revoked), within a second; the user’s other sessions stay', async () => {
    const companyId = newCompanyId();
    const user = await newUser(gw, companyId, { profile: 'admin' });
    const other = session(companyId, user.id, 'admin');
    const ended = await open(user.token);
    const kept = await open(other.token);
    const disconnected = cut(ended);
    await gw.revocation.revokeSessions([user.sid]);
    expect(await within(disconnected, 1000)).toMatchObject({ reason: 'io server disconnect' });
    expect(kept.socket.connected).toBe(true);
  });

  it('when a sign-in elsewhere replaced its session: told why first (without waiting for the bus), then cut after the grace; the new session stays', async () => {
    const companyId = newCompanyId();
    const user = await newUser(gw, companyId, { profile: 'admin' });
    const fresh = session(companyId, user.id, 'admin');
    const ended = await open(user.token);
    const current = await open(fresh.token);
    const channel = SocketChannels.auth(companyId);
    // what the socket had heard when it was cut
    const disconnected = new Promise<{ reason: string; heard: unknown[] }>((resolve) =>
      ended.socket.once('disconnect', (reason) => resolve({ reason, heard: [...ended.events(channel)] })),
    );
    // only the revocation: no sessionReplaced event on the bus (it may come later, or after the socket is gone)
    await gw.revocation.revokeSessions([user.sid], 'replaced');
    const result = await Promise.race([
      disconnected,
      new Promise<{ reason: string }>((resolve) => setTimeout(() => resolve({ reason: 'still connected' }), 3000)),
    ]);
    expect(result).toEqual({ reason: 'io server disconnect', heard: [{ action: 'sessionReplaced', user: { id: user.id } }] });
    expect(current.events(channel)).toEqual([]);
    expect(current.socket.connected).toBe(true);
  });

  it('when the user is deleted, within a second', async () => {
    const companyId = newCompanyId();
    const user = await newUser(gw, companyId);
    const client = await open(user.token);
    const disconnected = cut(client);
    await gw.revocation.revokeUser(user.id);
    expect(await within(disconnected, 1000)).toMatchObject({ reason: 'io server disconnect' });
  });

  it('when the user’s profile changes, within a second (the client reconnects with a fresh token); a change of queues keeps it', async () => {
    const companyId = newCompanyId();
    const user = await newUser(gw, companyId, { queueIds: [1] });
    const client = await open(user.token);
    await putUser(gw, { id: user.id, companyId, profile: 'user', queueIds: [1, 2] });
    await new Promise((r) => setTimeout(r, 300));
    expect(client.socket.connected).toBe(true);
    const disconnected = cut(client);
    // auth writes the directory entry and refuses the tokens signed before the change
    await putUser(gw, { id: user.id, companyId, profile: 'admin', queueIds: [1, 2] });
    await gw.revocation.revokeUserTokensBefore(user.id);
    expect(await within(disconnected, 1000)).toMatchObject({ reason: 'io server disconnect' });
    // the old token no longer opens a socket; a fresh one does
    await expect(connect(gw.baseUrl, user.token)).rejects.toMatchObject({ message: 'token stale' });
    const fresh = await open(session(companyId, user.id, 'admin').token);
    expect(fresh.socket.connected).toBe(true);
  });

  it('when its token expires', async () => {
    const companyId = newCompanyId();
    const user = await newUser(gw, companyId);
    const shortLived = session(companyId, user.id, 'user', false, 2);
    const client = await open(shortLived.token);
    const disconnected = cut(client);
    // cut at the token's expiry (2 s), not at some later sweep or reconnect
    const result = await within(disconnected, 10_000);
    expect(result.reason).toBe('io server disconnect');
  });
});
