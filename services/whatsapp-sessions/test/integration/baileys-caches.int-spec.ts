import { EventEmitter } from 'node:events';
import { randomBytes, randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { CacheStore, UserFacingSocketConfig } from '@whiskeysockets/baileys';
import type { BaileysSocket } from '../../src/runtime/providers/baileys/baileys.provider.js';
import { BoundedCache } from '../../src/runtime/providers/baileys/socket-caches.js';
import { ProviderFactory } from '../../src/runtime/providers/provider-factory.js';
import type { SessionProvider } from '../../src/runtime/providers/provider.js';
import { cleanup, companyPool, startSessions, tokenFor, type SessionsUnderTest } from './harness.js';

/** The bounds this file configures: small, so a test goes past them. */
const KEY_CACHE_MAX = 24;
const SOCKET_CACHE_MAX = 16;
const WS_URL = 'ws://127.0.0.1:9/ws/chat';

const companies = companyPool(1);
const companyId = companies[0]!;
let svc: SessionsUnderTest;
const created: Array<{ id: number; token: string }> = [];
/** the config of each socket the providers made, in order (WhatsApp cannot be reached: the socket does nothing) */
const configs: UserFacingSocketConfig[] = [];
const providers: SessionProvider[] = [];

beforeAll(async () => {
  svc = await startSessions(
    companies,
    { BAILEYS_KEY_CACHE_MAX: String(KEY_CACHE_MAX), BAILEYS_SOCKET_CACHE_MAX: String(SOCKET_CACHE_MAX), BAILEYS_WS_URL: WS_URL },
    {
      baileysSocketFactory: (config) => {
        configs.push(config);
        return { ev: new EventEmitter(), end: async () => undefined } as unknown as BaileysSocket;
      },
    },
  );
});

afterAll(async () => {
  for (const p of providers) await p.end().catch(() => undefined);
  await cleanup(svc, created);
  await svc?.close();
});

/** A Baileys connection (no session runs it: DISCONNECTED) and its provider, started: its socket's config is the last one. */
async function startedProvider(): Promise<{ connectionId: number; provider: SessionProvider; config: UserFacingSocketConfig }> {
  const rows = await svc.db.query(`INSERT INTO whatsapp.connections ("companyId", name, channel) VALUES ($1, $2, 'baileys') RETURNING id`, [
    companyId,
    `Caches ${randomInt(1e9)}`,
  ]);
  const connectionId = rows[0].id as number;
  created.push({ id: connectionId, token: tokenFor(companyId) });
  const provider = svc.app.get(ProviderFactory).create({ id: connectionId, companyId, channel: 'baileys' });
  providers.push(provider);
  const before = configs.length;
  await provider.start();
  expect(configs.length).toBe(before + 1);
  return { connectionId, provider, config: configs[configs.length - 1]! };
}

const sessionIds = (n: number) => Array.from({ length: n }, (_, i) => `5511988${String(i).padStart(6, '0')}.0`);
const dropRows = (connectionId: number) =>
  svc.db.query(`DELETE FROM whatsapp.session_state WHERE "connectionId" = $1 AND category = 'session'`, [connectionId]);

describe('baileys: a socket keeps a bounded number of signal keys and cache entries', () => {
  it('holds at most BAILEYS_KEY_CACHE_MAX signal keys in memory: every key is still answered, those dropped read again from PostgreSQL', async () => {
    const { connectionId, config } = await startedProvider();
    const keys = config.auth.keys;
    const ids = sessionIds(KEY_CACHE_MAX * 4);
    const records = new Map(ids.map((id) => [id, new Uint8Array(randomBytes(300))]));
    await keys.set({ session: Object.fromEntries(records) });

    // all of them answered, byte for byte, though most are no longer in memory
    const answered = await keys.get('session', ids);
    expect(Object.keys(answered).sort()).toEqual([...ids].sort());
    for (const id of ids) expect(Buffer.from(answered[id]!).equals(Buffer.from(records.get(id)!))).toBe(true);

    // with the rows gone from PostgreSQL, only what the socket keeps in memory is still answered: at most the bound
    await dropRows(connectionId);
    const fromMemory = await keys.get('session', ids);
    expect(Object.keys(fromMemory).length).toBe(KEY_CACHE_MAX);
    for (const [id, record] of Object.entries(fromMemory)) expect(Buffer.from(record).equals(Buffer.from(records.get(id)!))).toBe(true);
  });

  it("bounds the socket's retry counters, device lists, placeholder resends and call offers, and points it at BAILEYS_WS_URL", async () => {
    const { config } = await startedProvider();
    expect(config.waWebSocketUrl).toBe(WS_URL);
    const caches: Array<[string, CacheStore | undefined]> = [
      ['msgRetryCounterCache', config.msgRetryCounterCache],
      ['userDevicesCache', config.userDevicesCache],
      ['placeholderResendCache', config.placeholderResendCache],
      ['callOfferCache', config.callOfferCache],
    ];
    for (const [name, cache] of caches) {
      expect([name, cache instanceof BoundedCache]).toEqual([name, true]);
      const bounded = cache as BoundedCache;
      for (let i = 0; i < SOCKET_CACHE_MAX * 3; i++) await bounded.set(`5511977${i}@s.whatsapp.net`, i);
      expect([name, bounded.size]).toEqual([name, SOCKET_CACHE_MAX]);
      // the latest are kept, the oldest went first
      expect(bounded.get(`5511977${SOCKET_CACHE_MAX * 3 - 1}@s.whatsapp.net`)).toBe(SOCKET_CACHE_MAX * 3 - 1);
      expect(bounded.get('55119770@s.whatsapp.net')).toBeUndefined();
    }
  });

  it('gives each new socket of a session empty caches of its own: a reconnect never answers from what the last socket kept', async () => {
    const { connectionId, provider, config: first } = await startedProvider();
    const ids = sessionIds(4);
    await first.auth.keys.set({ session: Object.fromEntries(ids.map((id) => [id, new Uint8Array(randomBytes(40))])) });
    expect(Object.keys(await first.auth.keys.get('session', ids))).toHaveLength(4);

    // the rows gone from PostgreSQL behind the socket's back (another replica's logout, say): the socket's memory still answers…
    await dropRows(connectionId);
    expect(Object.keys(await first.auth.keys.get('session', ids))).toHaveLength(4);

    await provider.start(); // a reconnect
    const second = configs[configs.length - 1]!;
    expect(second).not.toBe(first);
    expect(second.userDevicesCache).not.toBe(first.userDevicesCache);
    // …the new socket's does not: it reads PostgreSQL
    expect(Object.keys(await second.auth.keys.get('session', ids))).toHaveLength(0);
  });
});
