import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { UserDirectory, USER_DIRECTORY_BUCKET, type DirectoryUser } from '@wa/auth';
import { Subjects } from '@wa/contracts';
import { EventBus, fnv1a } from '@wa/event-bus';
import { TEST_NATS_URL, waitFor } from '@wa/testing';
import { createServer, connect as tcpConnect, type Server, type Socket } from 'node:net';
import { connect, type Msg, type NatsConnection, type Subscription } from 'nats';
import { HelpsService } from '../../src/helps/helps.js';
import { login, newAgent, newCompany, refsOf, startAuth, type AuthUnderTest } from './harness.js';

interface Seen {
  subject: string;
  msgId: string | undefined;
  payload: Record<string, unknown>;
}

/** Every message published on `subject` (core subscription: one entry per publish that reached the server). */
function collect(nc: NatsConnection, subject: string): { seen: Seen[]; sub: Subscription } {
  const seen: Seen[] = [];
  const sub = nc.subscribe(subject, {
    callback: (_err, m: Msg) =>
      seen.push({ subject: m.subject, msgId: m.headers?.get('Nats-Msg-Id'), payload: m.json<Record<string, unknown>>() }),
  });
  return { seen, sub };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function outboxRows(auth: AuthUnderTest, subjects: string[]) {
  return auth.db.query(`SELECT subject, "msgId", payload, headers FROM auth.outbox WHERE subject = ANY($1::varchar[]) ORDER BY id`, [
    subjects,
  ]) as Promise<Array<{ subject: string; msgId: string; payload: unknown; headers: Record<string, string> | null }>>;
}

/**
 * What JetStream holds for one subject of a stream (the stream keeps one message per msg id in its window).
 * A subject names a company and a user by id, and ids are numbers of one database: another database on the
 * same NATS server (a per-test database, the dev one, a wa_test made anew while the stream kept a week of
 * messages) can have published on the same subject. So a test compares counts before and after.
 */
async function storedCount(nc: NatsConnection, stream: string, subject: string): Promise<number> {
  const jsm = await nc.jetstreamManager();
  const info = await jsm.streams.info(stream, { subjects_filter: subject });
  return info.state.subjects?.[subject] ?? 0;
}

describe('auth publishes through its outbox', () => {
  let auth: AuthUnderTest;
  let nc: NatsConnection;
  let reader: UserDirectory;

  beforeAll(async () => {
    auth = await startAuth();
    nc = await connect({ servers: TEST_NATS_URL });
    reader = await UserDirectory.open(nc);
  });

  afterAll(async () => {
    await nc?.drain();
    await auth?.close();
  });

  it("writes a user's update and directory entry in the transaction, and the relay publishes them after commit", async () => {
    const c = await newCompany(auth.db);
    const http = auth.client();
    const admin = await login(http, c.admin.email, c.admin.password);
    const [q5, q6] = await refsOf(auth, c.companyId, 'queue', 2);
    const agent = await newAgent(http, admin.token, { queueIds: [q5] });
    const dirSubject = `$KV.${USER_DIRECTORY_BUCKET}.${c.companyId}.${agent.id}`;
    const updSubject = Subjects.userUpdated(c.companyId, agent.id);
    // the creation went through the relay: its directory entry is there
    await waitFor(async () => (await reader.get(c.companyId, agent.id))?.queueIds.length === 1);
    const mirror = await reader.mirror();
    const updates = collect(nc, updSubject);
    const dirWrites = collect(nc, dirSubject);

    // hold the relay's lock (the one every auth process takes before publishing): the rows must wait in the table
    const lockKey = fnv1a('outbox:auth') | 0;
    const holder = auth.db.createQueryRunner();
    await holder.connect();
    let updatedAt = '';
    try {
      await holder.query('SELECT pg_advisory_lock($1)', [lockKey]);
      const res = await http.put(`/users/${agent.id}`, { token: admin.token, body: { name: 'Agent Renamed', queueIds: [q5, q6] } });
      expect(res.status).toBe(200);
      updatedAt = res.body.updatedAt;
      const updatedAtMs = Date.parse(updatedAt);
      const entry: DirectoryUser = {
        id: agent.id,
        companyId: c.companyId,
        name: 'Agent Renamed',
        profile: 'user',
        queueIds: [q5, q6],
        allTicket: 'desabled',
        super: false,
        version: updatedAtMs,
      };
      // committed with the change, directory entry first
      const rows = await outboxRows(auth, [dirSubject, updSubject]);
      expect(rows.map((r) => r.subject)).toEqual([dirSubject, updSubject]);
      expect(rows[0].msgId).toMatch(new RegExp(`^dir:${c.companyId}\\.${agent.id}:${updatedAtMs}:`));
      expect(rows[0].payload).toEqual(entry);
      expect(rows[0].headers).toBeNull();
      expect(rows[1].msgId).toBe(`user-updated:${agent.id}:${updatedAtMs}`);
      expect(rows[1].payload).toMatchObject({
        companyId: c.companyId,
        userId: agent.id,
        name: 'Agent Renamed',
        queueIds: [q5, q6],
        at: res.body.updatedAt,
      });
      await sleep(300);
      expect(updates.seen).toHaveLength(0);
      expect((await reader.get(c.companyId, agent.id))?.queueIds).toEqual([q5]);
    } finally {
      await holder.query('SELECT pg_advisory_unlock($1)', [lockKey]).catch(() => undefined);
      await holder.release();
    }

    // released: the relay publishes both, the event on its subject and the entry in the KV bucket
    await waitFor(async () => updates.seen.length === 1 && dirWrites.seen.length === 1, { timeoutMs: 10_000 });
    const updatedAtMs = Date.parse(updatedAt);
    expect(updates.seen[0].msgId).toBe(`user-updated:${agent.id}:${updatedAtMs}`);
    expect(updates.seen[0].payload).toEqual({
      companyId: c.companyId,
      userId: agent.id,
      name: 'Agent Renamed',
      email: agent.email,
      profile: 'user',
      queueIds: [q5, q6],
      allTicket: 'desabled',
      super: false,
      at: updatedAt,
    });
    const expected: DirectoryUser = {
      id: agent.id,
      companyId: c.companyId,
      name: 'Agent Renamed',
      profile: 'user',
      queueIds: [q5, q6],
      allTicket: 'desabled',
      super: false,
      version: updatedAtMs,
    };
    // reads back as put() would have stored it: through get(), the raw KV entry and a watching mirror
    expect(await reader.get(c.companyId, agent.id)).toEqual(expected);
    const kv = await nc.jetstream().views.kv(USER_DIRECTORY_BUCKET, { history: 1 });
    const raw = await kv.get(`${c.companyId}.${agent.id}`);
    expect(raw?.operation).toBe('PUT');
    expect(JSON.parse(raw!.string())).toEqual(JSON.parse(JSON.stringify(expected)));
    await waitFor(async () => mirror.lookup(c.companyId, agent.id)?.name === 'Agent Renamed');
    expect(mirror.lookup(c.companyId, agent.id)).toEqual(expected);
    expect(await outboxRows(auth, [dirSubject, updSubject])).toEqual([]);

    // a delete: a DEL marker on the key (reads as removed everywhere) and user.deleted
    const deletes = collect(nc, Subjects.userDeleted(c.companyId, agent.id));
    expect((await http.delete(`/users/${agent.id}`, { token: admin.token })).status).toBeLessThan(300);
    await waitFor(async () => deletes.seen.length === 1 && (await reader.get(c.companyId, agent.id)) === null, { timeoutMs: 10_000 });
    expect(deletes.seen[0].msgId).toBe(`user-deleted:${agent.id}`);
    expect((await kv.get(`${c.companyId}.${agent.id}`))?.operation).toBe('DEL');
    await waitFor(async () => mirror.lookup(c.companyId, agent.id) === null);
    const keys: string[] = [];
    for await (const k of await kv.keys(`${c.companyId}.>`)) keys.push(k);
    expect(keys).not.toContain(`${c.companyId}.${agent.id}`);
    mirror.stop();
    for (const s of [updates, dirWrites, deletes]) s.sub.unsubscribe();
  }, 60_000);

  it("announces a help's creation, change and deletion (company.help.updated|deleted.<id>), so the lists reload live", async () => {
    const helps = auth.app.get(HelpsService);
    const updates = collect(nc, 'company.help.updated.*');
    const deletions = collect(nc, 'company.help.deleted.*');
    const help = await helps.create({ title: `Ajuda ${Date.now()}`, video: 'dQw4w9WgXcQ' });
    await helps.update(help.id, { description: 'Como enviar uma mensagem' });
    await helps.remove(help.id);
    const mine = (seen: Seen[]) => seen.filter((m) => m.payload.helpId === help.id);
    await waitFor(() => mine(updates.seen).length >= 2 && mine(deletions.seen).length >= 1, { timeoutMs: 10_000 });
    expect(mine(updates.seen).map((m) => m.subject)).toEqual([Subjects.helpUpdated(help.id), Subjects.helpUpdated(help.id)]);
    expect(mine(deletions.seen).map((m) => m.subject)).toEqual([Subjects.helpDeleted(help.id)]);
    // a title taken is still refused as before (the unique index, now inside the announcing transaction)
    const again = await helps.create({ title: help.title, video: 'dQw4w9WgXcQ' });
    await expect(helps.create({ title: help.title, video: 'dQw4w9WgXcQ' })).rejects.toMatchObject({ code: 'ERR_VALIDATION' });
    await helps.remove(again.id);
    for (const s of [updates, deletions]) s.sub.unsubscribe();
  });
});

/** A TCP hop between the service and NATS that a test can cut and restore: NATS unreachable, for real. */
class NatsProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly upstream: { host: string; port: number }) {}

  async start(): Promise<void> {
    const server = createServer((client) => {
      const upstream = tcpConnect(this.upstream.port, this.upstream.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('error', () => undefined);
        s.on('close', () => {
          this.sockets.delete(s);
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  /** Stops listening and cuts every connection. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const s of this.sockets) s.destroy();
    await closed;
  }
}

describe('auth while NATS is unreachable', () => {
  let auth: AuthUnderTest | undefined;
  let nc: NatsConnection;
  let proxy: NatsProxy;

  beforeAll(async () => {
    const url = new URL(TEST_NATS_URL);
    proxy = new NatsProxy({ host: url.hostname, port: Number(url.port || 4222) });
    await proxy.start();
    auth = await startAuth({ NATS_URL: `nats://127.0.0.1:${proxy.port}` });
    nc = await connect({ servers: TEST_NATS_URL });
  });

  afterAll(async () => {
    await proxy.start().catch(() => undefined); // so the app's bus can drain
    await auth?.close();
    await nc?.drain();
    await proxy.stop();
  });

  it('answers changes at once and publishes each event exactly once when NATS is back', async () => {
    const app = auth!;
    const c = await newCompany(app.db);
    const http = app.client();
    const admin = await login(http, c.admin.email, c.admin.password);
    const key = 'sendGreetingAccepted';
    const settingSubject = Subjects.settingUpdated(c.companyId, key);
    const userSubject = Subjects.userUpdated(c.companyId, c.adminId);
    const dirSubject = `$KV.${USER_DIRECTORY_BUCKET}.${c.companyId}.${c.adminId}`;
    // what the sign-in wrote is out before the outage
    await waitFor(async () => (await outboxRows(app, [dirSubject])).length === 0);
    const settings = collect(nc, settingSubject);
    const users = collect(nc, userSubject);
    const dirWrites = collect(nc, dirSubject);
    const storedBefore = { setting: await storedCount(nc, 'AUTH', settingSubject), user: await storedCount(nc, 'AUTH', userSubject) };

    await proxy.stop();
    const bus = app.app.get(EventBus);
    await waitFor(async () => !bus.isConnected(), { timeoutMs: 5000 });

    // both answer while NATS is still out of reach: nothing waits for the bus
    const setting = await http.put(`/settings/${key}`, { token: admin.token, body: { value: 'enabled' } });
    const user = await http.put(`/users/${c.adminId}`, { token: admin.token, body: { name: 'Admin Offline' } });
    expect(bus.isConnected()).toBe(false);
    expect(setting.status).toBe(200);
    expect(setting.body).toEqual({ key, value: 'enabled' });
    expect(user.status).toBe(200);
    const changed = await app.client().get('/settings', { token: admin.token });
    expect(changed.body).toEqual(expect.arrayContaining([{ key, value: 'enabled' }]));

    // NATS stays out of reach: the events wait in the table
    await sleep(2500);
    expect(bus.isConnected()).toBe(false);
    expect(settings.seen).toHaveLength(0);
    expect(users.seen).toHaveLength(0);
    expect((await outboxRows(app, [settingSubject, userSubject, dirSubject])).map((r) => r.subject).sort()).toEqual(
      [dirSubject, settingSubject, userSubject].sort(),
    );

    // NATS is back: each event reaches the stream, once. The relay is done when its rows are gone (each one
    // deleted after the stream acknowledged it); a row whose ack came late is published again, with its msg id,
    // and the stream drops the repeat: so the core subscriptions may see a copy, the stream holds one
    await proxy.start();
    await waitFor(async () => (await outboxRows(app, [settingSubject, userSubject, dirSubject])).length === 0, { timeoutMs: 30_000 });
    await waitFor(async () => settings.seen.length > 0 && users.seen.length > 0 && dirWrites.seen.length > 0, { timeoutMs: 10_000 });
    expect(new Set(settings.seen.map((m) => m.msgId)).size).toBe(1);
    expect(settings.seen[0].payload).toMatchObject({ companyId: c.companyId, key, value: 'enabled' });
    expect(settings.seen[0].msgId).toMatch(new RegExp(`^setting:${c.companyId}:${key}:\\d+$`));
    expect(users.seen.map((m) => m.msgId)).toEqual(users.seen.map(() => `user-updated:${c.adminId}:${Date.parse(user.body.updatedAt)}`));
    expect(users.seen[0].payload).toMatchObject({ userId: c.adminId, name: 'Admin Offline', at: user.body.updatedAt });
    expect(new Set(dirWrites.seen.map((m) => m.msgId)).size).toBe(1);
    expect(await storedCount(nc, 'AUTH', settingSubject)).toBe(storedBefore.setting + 1);
    expect(await storedCount(nc, 'AUTH', userSubject)).toBe(storedBefore.user + 1);
    expect(await (await UserDirectory.open(nc)).get(c.companyId, c.adminId)).toMatchObject({ name: 'Admin Offline', profile: 'admin' });
    for (const s of [settings, users, dirWrites]) s.sub.unsubscribe();
  }, 90_000);
});
