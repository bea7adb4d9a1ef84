import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect, type NatsConnection } from 'nats';
import { UserDirectory, type DirectoryUser } from '../src/index.js';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const companyId = 800_000_000 + Math.floor(Math.random() * 1_000_000);
/** JetStream pushes a stored change to the watch at once; a short grace keeps a loaded machine from failing the test. */
async function soon(check: () => boolean): Promise<boolean> {
  const until = Date.now() + 2000;
  while (!check() && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
  return check();
}
const user = (id: number, queueIds: number[]): DirectoryUser => ({
  id,
  companyId,
  name: `Agente ${id}`,
  profile: 'user',
  queueIds,
  allTicket: 'desabled',
  super: false,
});

describe('UserDirectory mirrored in memory', () => {
  let writerConn: NatsConnection;
  let readerConn: NatsConnection;
  let writer: UserDirectory;
  let reader: UserDirectory;

  beforeAll(async () => {
    writerConn = await connect({ servers: NATS_URL });
    readerConn = await connect({ servers: NATS_URL });
    writer = await UserDirectory.open(writerConn);
    reader = await UserDirectory.open(readerConn);
  });
  afterAll(async () => {
    await writer.remove(companyId, 1).catch(() => undefined);
    await writer.remove(companyId, 2).catch(() => undefined);
    await writerConn.close();
    await readerConn.close();
  });

  it('holds the users written before it started, and each change as soon as the write returns', async () => {
    await writer.put(user(1, [10]));
    const mirror = await reader.mirror();
    try {
      expect(mirror.isLive).toBe(true);
      expect(mirror.lookup(companyId, 1)?.queueIds).toEqual([10]);
      expect(mirror.lookup(companyId, 2)).toBeNull();
      // an admin changes the agent's queues: the mirror has it as soon as JetStream stored it
      await writer.put(user(1, [10, 11]));
      expect(await soon(() => mirror.lookup(companyId, 1)?.queueIds.length === 2)).toBe(true);
      await writer.put(user(2, []));
      await writer.remove(companyId, 1);
      expect(await soon(() => mirror.lookup(companyId, 1) === null)).toBe(true);
      expect(mirror.nameOf(companyId, 2)).toBe('Agente 2');
    } finally {
      mirror.stop();
    }
    expect(mirror.lookup(companyId, 2)).toBeUndefined();
  });

  it('waits for an entry of an announced version: no older copy is used, however late the watch delivers', async () => {
    const mirror = await reader.mirror();
    try {
      for (let i = 1; i <= 100; i++) {
        await writer.put({ ...user(1, [i]), version: i });
        // several readers at once, each told the version auth announced
        const seen = await Promise.all([1, 2, 3].map(() => mirror.lookupAtLeast(companyId, 1, i)));
        expect(seen.map((u) => u?.queueIds)).toEqual([[i], [i], [i]]);
      }
      // a version that never comes: after the wait, "ask the bucket" (undefined), never the older copy
      expect(await mirror.lookupAtLeast(companyId, 1, 1000, 50)).toBeUndefined();
      // nothing announced: the copy as it stands, at once
      expect((await mirror.lookupAtLeast(companyId, 1, 0))?.queueIds).toEqual([100]);
      await writer.remove(companyId, 1);
      expect(await soon(() => mirror.lookup(companyId, 1) === null)).toBe(true);
      expect(await mirror.lookupAtLeast(companyId, 1, 0)).toBeNull();
    } finally {
      mirror.stop();
    }
    expect(await mirror.lookupAtLeast(companyId, 1, 1)).toBeUndefined();
  });
});
