import { randomInt } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { WaSubjects, type WaInboundMessage } from '@wa/contracts';
import { mediaForm, pngFile, waitFor } from '@wa/testing';
import {
  Collector,
  cleanup,
  companyPool,
  createConnection,
  startSessions,
  storedOn,
  tokenFor,
  waitForStatus,
  type SessionsUnderTest,
} from './harness.js';

/**
 * The sandbox phone's WhatsApp servers keep, in PostgreSQL, what customers write while its session runs nowhere or
 * is cut off (issue 43 §3), as WhatsApp keeps it for a phone that is down: answered 202, handed over as the offline
 * backlog when a session of the phone connects in any process (in the order written, with the times written, once
 * each), an outage outliving the process that began it, nothing of it for a new pairing. Several real
 * whatsapp-sessions processes against the real PostgreSQL, Redis and NATS.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** WhatsApp's clock: whole seconds */
const second = (ms: number) => Math.floor(ms / 1000) * 1000;
const customer = () => `55119${randomInt(10_000_000, 99_999_999)}`;
/** a free session is taken at once; a dropped one tries again within 0.3 s, then 0.6 s apart at most */
const QUICK = { SESSION_CLAIM_GRACE_MS: '0', BAILEYS_RECONNECT_BASE_MS: '300', BAILEYS_RECONNECT_MAX_MS: '600' };

/** Messages the sandbox's WhatsApp keeps for the connection's phone. */
async function heldFor(svc: SessionsUnderTest, connectionId: number): Promise<number> {
  const rows = (await svc.db.query(`SELECT count(*)::int AS n FROM whatsapp.sandbox_held_messages WHERE "connectionId" = $1`, [
    connectionId,
  ])) as Array<{ n: number }>;
  return rows[0]!.n;
}

/** The connection's backlog counter in a process' /metrics (0 before its first backlog). */
async function backlogOf(svc: SessionsUnderTest, connectionId: number): Promise<number> {
  const res = await svc.http.get('/metrics');
  const line = new RegExp(`^whatsapp_sessions_backlog_messages_total\\{[^}]*connectionId="${connectionId}"[^}]*\\} (\\d+)`, 'm').exec(
    String(res.body),
  );
  return line ? Number(line[1]) : 0;
}

/**
 * A connection of a company of its own, CONNECTED and then left running nowhere: the process that ran it shut down
 * (its status stays CONNECTED, its lease free) and `front`, which takes the HTTP calls, takes no session of that
 * company (SESSION_COMPANY_IDS).
 */
async function connectionRunningNowhere(): Promise<{ companyId: number; token: string; id: number }> {
  const [companyId] = companyPool(1) as [number];
  const token = tokenFor(companyId);
  const first = await startSessions([companyId], QUICK);
  try {
    const c = await createConnection(first, token, { name: 'Sandbox guardado' });
    expect(c.status).toBe('CONNECTED');
    return { companyId, token, id: c.id };
  } finally {
    await first.close();
  }
}

describe('what customers write to a sandbox phone whose session runs nowhere', () => {
  it('is answered 202 and kept; a process that takes the session hands it over as the backlog: in the order written, with the times written, once each', async () => {
    const c = await connectionRunningNowhere();
    const front = await startSessions(companyPool(1), QUICK);
    let taker: SessionsUnderTest | undefined;
    const inbound = new Collector<WaInboundMessage>(front.nc, `wa.inbound.${c.companyId}.${c.id}.>`);
    try {
      expect(front.runner.isRunning(c.id)).toBe(false);
      expect((await front.http.get(`/whatsappsession/${c.id}`, { token: c.token })).body).toMatchObject({
        status: 'CONNECTED',
        owner: null,
      });

      const [ana, bia] = [customer(), customer()];
      const lid = String(randomInt(100_000_000, 999_999_999)) + String(randomInt(100_000, 999_999));
      const url = `/whatsappsession/${c.id}/sandbox/inbound`;
      const writes: Array<{ ids: string[]; before: number; after: number }> = [];
      const write = async (call: () => Promise<{ status: number; body: { id?: string; ids?: string[] } }>) => {
        const before = Date.now();
        const res = await call();
        expect(res.status).toBe(202);
        writes.push({ ids: res.body.ids ?? [res.body.id!], before, after: Date.now() });
      };
      await write(() => front.http.post(url, { token: c.token, body: { from: ana, name: 'Ana', body: 'um' } }));
      // a second later: each keeps the second it was written
      await sleep(1100);
      await write(() =>
        front.http.post(`${url}/batch`, {
          token: c.token,
          body: {
            messages: [
              { from: bia, fromLid: lid, name: 'Bia', body: 'dois, pelo LID' },
              { from: ana, body: '', undecryptable: true, id: 'HELD-UNDECRYPTABLE' },
              { from: ana, body: 'três' },
            ],
          },
        }),
      );
      const photo = pngFile({ size: 16, rgb: [10, 200, 10] });
      await write(() =>
        front.http.post(url, {
          token: c.token,
          form: mediaForm([{ field: 'media', name: 'foto.png', data: photo, type: 'image/png' }], { from: bia, body: 'a foto' }),
        }),
      );
      const [um, dois, cifrada, tres, foto] = writes.flatMap((w) => w.ids.map((id) => ({ id, before: w.before, after: w.after })));
      expect(cifrada!.id).toBe('HELD-UNDECRYPTABLE');

      // kept, not delivered: no process runs the session
      await sleep(300);
      expect(inbound.items).toHaveLength(0);
      expect(await heldFor(front, c.id)).toBe(5);

      // a process takes the session: the backlog comes with the connect
      const connectedBefore = Date.now();
      taker = await startSessions([c.companyId], QUICK);
      await waitFor(async () => taker!.runner.isRunning(c.id), { timeoutMs: 15_000 });
      await waitForStatus(taker, c.token, c.id, 'CONNECTED');
      await waitFor(async () => inbound.items.length >= 5, { timeoutMs: 10_000 });
      const of = (from: string) => inbound.items.filter((m) => m.data.from === from).map((m) => m.data);
      expect(of(ana).map((m) => m.waMessageId)).toEqual([um!.id, cifrada!.id, tres!.id]);
      expect(of(bia).map((m) => m.waMessageId)).toEqual([dois!.id, foto!.id]);
      expect(of(ana)[1]).toMatchObject({ mediaType: 'ciphertext', resend: 'waiting' });
      expect(of(bia)[0]).toMatchObject({ fromLid: lid, fromName: 'Bia', body: 'dois, pelo LID' });
      expect(of(bia)[1]).toMatchObject({ mediaType: 'image', body: 'a foto', media: { mimetype: 'image/png', size: photo.length } });
      // each with the second it was written, before the session came back
      for (const w of [um, dois, cifrada, tres, foto]) {
        const m = inbound.items.find((i) => i.data.waMessageId === w!.id)!.data;
        expect(m.timestamp).toBeGreaterThanOrEqual(second(w!.before));
        expect(m.timestamp).toBeLessThanOrEqual(w!.after);
        expect(m.timestamp).toBeLessThan(connectedBefore);
      }
      expect(of(ana)[0]!.timestamp).toBeLessThan(of(ana)[2]!.timestamp);
      // once each on the stream, counted once each as the backlog; none kept any longer
      expect(await storedOn(front.jsm, WaSubjects.inbound(c.companyId, c.id, ana))).toBe(3);
      expect(await storedOn(front.jsm, WaSubjects.inbound(c.companyId, c.id, bia))).toBe(2);
      await waitFor(async () => (await backlogOf(taker!, c.id)) === 5);
      expect(await heldFor(front, c.id)).toBe(0);

      // back: a message goes through at once, after the backlog, and is no backlog
      await write(() => front.http.post(url, { token: c.token, body: { from: ana, body: 'ao vivo' } }));
      await inbound.waitFor((m) => m.data.body === 'ao vivo');
      expect(of(ana).map((m) => m.body)).toEqual(['um', '', 'três', 'ao vivo']);
      expect(await backlogOf(taker, c.id)).toBe(5);

      // a process killed after a delivery was published and before it was forgotten hands it over again on the next
      // connect: the same messages, under the same ids, are repeats (nothing stored twice, nothing counted twice)
      await front.db.query(
        `INSERT INTO whatsapp.sandbox_held_messages ("connectionId", "companyId", "waMessageId", message, "writtenAt")
         VALUES ($1, $2, $3, $4::jsonb, $5), ($1, $2, $6, $7::jsonb, $5)`,
        [
          c.id,
          c.companyId,
          um!.id,
          JSON.stringify({ from: ana, name: 'Ana', body: 'um', id: um!.id }),
          new Date(second(um!.before)),
          tres!.id,
          JSON.stringify({ from: ana, body: 'três', id: tres!.id }),
        ],
      );
      const seen = inbound.items.length;
      expect((await front.http.post(`/whatsappsession/${c.id}/sandbox/disconnect`, { token: c.token, body: { code: 408 } })).status).toBe(
        200,
      );
      await waitFor(async () => (await heldFor(front, c.id)) === 0, { timeoutMs: 10_000 });
      // repeats: the process that hands them over published them a moment ago, so they are not published again
      await sleep(300);
      expect(inbound.items).toHaveLength(seen);
      expect(await storedOn(front.jsm, WaSubjects.inbound(c.companyId, c.id, ana))).toBe(4);
      expect(await backlogOf(taker, c.id)).toBe(5);
    } finally {
      inbound.close();
      await cleanup(front, [{ id: c.id, token: c.token }]);
      await taker?.close();
      await front.close();
    }
  });

  it('is refused for a phone logged out meanwhile, and what was kept before is not for its new pairing', async () => {
    const c = await connectionRunningNowhere();
    const front = await startSessions(companyPool(1), QUICK);
    const from = customer();
    const url = `/whatsappsession/${c.id}/sandbox/inbound`;
    try {
      expect((await front.http.post(url, { token: c.token, body: { from, body: 'antes do logout' } })).status).toBe(202);
      expect(await heldFor(front, c.id)).toBe(1);
      // an admin disconnects the connection nobody runs: logged out
      expect((await front.http.delete(`/whatsappsession/${c.id}`, { token: c.token })).status).toBe(200);
      expect((await front.http.get(`/whatsapp/${c.id}`, { token: c.token })).body.status).toBe('DISCONNECTED');
      expect(await front.http.post(url, { token: c.token, body: { from, body: 'depois do logout' } })).toMatchObject({
        status: 400,
        body: { error: 'ERR_WAPP_NOT_INITIALIZED' },
      });
      // paired again (the "try again" button): it starts here, with nothing of the old pairing
      expect((await front.http.post(`/whatsappsession/${c.id}`, { token: c.token })).status).toBe(200);
      await waitForStatus(front, c.token, c.id, 'CONNECTED');
      await sleep(500);
      expect(await storedOn(front.jsm, WaSubjects.inbound(c.companyId, c.id, from))).toBe(0);
      expect(await heldFor(front, c.id)).toBe(0);
    } finally {
      await cleanup(front, [{ id: c.id, token: c.token }]);
      await front.close();
    }
  });
});

describe('the hand-over of what was kept', () => {
  it('is made by one session at a time: a claim left by a process killed mid-way holds it back until it lapses, live messages waiting behind it', async () => {
    const c = await connectionRunningNowhere();
    const front = await startSessions(companyPool(1), QUICK);
    let taker: SessionsUnderTest | undefined;
    const inbound = new Collector<WaInboundMessage>(front.nc, `wa.inbound.${c.companyId}.${c.id}.>`);
    const from = customer();
    const write = async (body: string) => {
      const res = await front.http.post(`/whatsappsession/${c.id}/sandbox/inbound`, { token: c.token, body: { from, body } });
      expect(res.status).toBe(202);
      return res.body.id as string;
    };
    try {
      const um = await write('um');
      const dois = await write('dois');
      // a process killed while it was being handed the backlog left its claim behind
      await front.db.query(
        `INSERT INTO whatsapp.sandbox_phones ("connectionId", "handOverBy", "handOverUntil") VALUES ($1, 'killed-process', now() + interval '1 hour')
         ON CONFLICT ("connectionId") DO UPDATE SET "handOverBy" = EXCLUDED."handOverBy", "handOverUntil" = EXCLUDED."handOverUntil"`,
        [c.id],
      );
      taker = await startSessions([c.companyId], QUICK);
      await waitFor(async () => taker!.runner.isRunning(c.id), { timeoutMs: 15_000 });
      await waitForStatus(taker, c.token, c.id, 'CONNECTED');
      // written live while the backlog cannot be handed over: accepted, kept behind it
      const tres = await write('três');
      await sleep(1500);
      expect(inbound.items).toHaveLength(0);
      expect(await heldFor(front, c.id)).toBe(3);

      // the claim lapses: the session hands everything over, in the order written, once each
      await front.db.query(`UPDATE whatsapp.sandbox_phones SET "handOverUntil" = now() - interval '1 second' WHERE "connectionId" = $1`, [
        c.id,
      ]);
      await waitFor(async () => inbound.items.length === 3, { timeoutMs: 10_000 });
      expect(inbound.items.map((m) => m.data.waMessageId)).toEqual([um, dois, tres]);
      expect(await storedOn(front.jsm, WaSubjects.inbound(c.companyId, c.id, from))).toBe(3);
      await waitFor(async () => (await heldFor(front, c.id)) === 0);
      // and the claim is let go (a statement of its own, just after the backlog's rows are gone)
      const claimOf = async () =>
        (
          (await front.db.query(`SELECT "handOverBy" FROM whatsapp.sandbox_phones WHERE "connectionId" = $1`, [c.id])) as Array<{
            handOverBy: string | null;
          }>
        ).map((r) => r.handOverBy);
      await waitFor(async () => (await claimOf())[0] === null, { timeoutMs: 10_000 });
      expect(await claimOf()).toEqual([null]);
    } finally {
      inbound.close();
      await cleanup(front, [{ id: c.id, token: c.token }]);
      await taker?.close();
      await front.close();
    }
  });
});

describe('an outage of the sandbox phone (POST …/sandbox/offline)', () => {
  it('outlives the process that began it: the process taking the session over connects once the network is back and hands over what was written meanwhile', async () => {
    const [companyId] = companyPool(1) as [number];
    const token = tokenFor(companyId);
    let a: SessionsUnderTest | undefined = await startSessions([companyId], QUICK);
    let b: SessionsUnderTest | undefined;
    let connectionId = 0;
    let inbound: Collector<WaInboundMessage> | undefined;
    try {
      const c = await createConnection(a, token, { name: 'Sandbox sem rede' });
      connectionId = c.id;
      const from = customer();
      const write = async (svc: SessionsUnderTest, body: string) => {
        const before = Date.now();
        const res = await svc.http.post(`/whatsappsession/${c.id}/sandbox/inbound`, { token, body: { from, body } });
        expect(res.status).toBe(202);
        return { id: res.body.id as string, before, after: Date.now() };
      };

      expect((await a.http.post(`/whatsappsession/${c.id}/sandbox/offline`, { token, body: { seconds: 5 } })).status).toBe(200);
      const offlineAt = Date.now();
      await waitForStatus(a, token, c.id, 'TIMEOUT', 5000);
      const um = await write(a, 'um');
      await sleep(1100);
      const dois = await write(a, 'dois');

      // the process cut off goes away mid-outage; another takes the session over
      await a.close();
      a = undefined;
      b = await startSessions([companyId], QUICK);
      const published = (inbound = new Collector<WaInboundMessage>(b.nc, `wa.inbound.${companyId}.>`));
      await waitFor(async () => b!.runner.isRunning(c.id), { timeoutMs: 15_000 });
      // still no network: the new session's attempts fail as the old one's did, and what is written is kept too
      const tres = await write(b, 'três');
      expect((await b.http.get(`/whatsapp/${c.id}`, { token })).body.status).not.toBe('CONNECTED');
      expect(published.items).toHaveLength(0);

      await waitForStatus(b, token, c.id, 'CONNECTED', 15_000);
      expect(Date.now() - offlineAt).toBeGreaterThanOrEqual(5000);
      await waitFor(async () => published.items.length === 3, { timeoutMs: 10_000 });
      expect(published.items.map((m) => m.data.waMessageId)).toEqual([um.id, dois.id, tres.id]);
      for (const [w, m] of [um, dois, tres].map((w, i) => [w, published.items[i]!.data] as const)) {
        expect(m.timestamp).toBeGreaterThanOrEqual(second(w.before));
        expect(m.timestamp).toBeLessThanOrEqual(w.after);
      }
      expect(await storedOn(b.jsm, WaSubjects.inbound(companyId, c.id, from))).toBe(3);
      await waitFor(async () => (await backlogOf(b!, c.id)) === 3);
      expect(await heldFor(b, c.id)).toBe(0);
    } finally {
      inbound?.close();
      if (b && connectionId) await cleanup(b, [{ id: connectionId, token }]);
      await a?.close();
      await b?.close();
    }
  });
});
