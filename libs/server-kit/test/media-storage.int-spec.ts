import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import S3rver from 's3rver';
import { ensureLibBuilt } from '../../../scripts/lib/built-lib.mjs';
import { LocalDiskStorage, type MediaStorage } from '../src/storage/media-storage.js';
import { S3Storage } from '../src/storage/s3-storage.js';

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** A stream of `size` pseudo-random bytes made chunk by chunk (never one buffer of the whole file). */
function bytes(size: number, seed: string): { stream: Readable; sha256: string } {
  const hash = createHash('sha256');
  const chunks: Buffer[] = [];
  for (let done = 0, i = 0; done < size; i++) {
    const chunk = createHash('sha512').update(`${seed}:${i}`).digest();
    const part = chunk.subarray(0, Math.min(chunk.length, size - done));
    chunks.push(part);
    hash.update(part);
    done += part.length;
  }
  return { stream: Readable.from(chunks), sha256: hash.digest('hex') };
}

let s3: S3rver;
let s3Port: number;
let dir: string;
const drivers: Array<[string, () => MediaStorage]> = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'media-storage-'));
  // a real S3-compatible server on this machine (s3rver: the S3 REST API over its own directory)
  s3 = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: join(dir, 's3'),
    configureBuckets: [{ name: 'conversa-media', configs: [] }],
  });
  s3Port = ((await s3.run()) as unknown as { port: number }).port;
  const s3Storage = bucket();
  drivers.push(['local disk', () => new LocalDiskStorage(join(dir, 'disk'))], ['S3-compatible', () => s3Storage]);
});

const bucket = () =>
  new S3Storage({
    bucket: 'conversa-media',
    client: {
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${s3Port}`,
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    },
  });

afterAll(async () => {
  await s3?.close();
  await rm(dir, { recursive: true, force: true });
});

// in a plain Node process, where the AWS SDK takes real time to load: importing server-kit does not load it (every
// service imports server-kit, few store media in S3), and a put as a bucket's first call, made while it loads, stores
// every byte its source gave meanwhile
it('S3-compatible: the SDK is loaded on first use, and a first put stores the whole stream', async () => {
  // the child runs the built library: rebuilt when a source is newer than dist
  ensureLibBuilt(fileURLToPath(new URL('..', import.meta.url)));
  const fixture = fileURLToPath(new URL('./fixtures/s3-first-put.mjs', import.meta.url));
  // not execFileSync: the S3 server answering the child runs in this process
  const { stdout } = await promisify(execFile)(process.execPath, [fixture, `http://127.0.0.1:${s3Port}`], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  const r = JSON.parse(stdout.trim().split('\n').pop() as string) as Record<string, unknown>;
  expect(r).toMatchObject({ loadedByImport: false, loadedByUse: true, put: { size: 300_000 }, stored: 300_000 });
  expect(r.read).toBe(r.sent);
}, 90_000);

describe.each([['local disk'], ['S3-compatible']])('media storage: %s', (name) => {
  const storage = () => (drivers.find(([n]) => n === name) as [string, () => MediaStorage])[1]();

  it('stores a stream, answers its size, serves it back whole with its type, replaces and deletes it', async () => {
    const key = `42/${randomBytes(8).toString('hex')}/foto.png`;
    expect(await storage().head(key)).toBeNull();
    expect(await storage().get(key)).toBeNull();
    const first = bytes(300_000, 'a');
    expect(await storage().put(key, first.stream)).toEqual({ size: 300_000 });
    expect(await storage().head(key)).toEqual({ size: 300_000 });
    const got = await storage().get(key);
    expect(got).toMatchObject({ size: 300_000, contentType: 'image/png' });
    expect(
      createHash('sha256')
        .update(await readAll(got!.stream))
        .digest('hex'),
    ).toBe(first.sha256);
    // the same key again (a replayed message): replaced
    const second = bytes(1000, 'b');
    await storage().put(key, second.stream);
    expect(
      createHash('sha256')
        .update(await readAll((await storage().get(key))!.stream))
        .digest('hex'),
    ).toBe(second.sha256);
    await storage().delete(key);
    expect(await storage().head(key)).toBeNull();
  });

  it('streams a file larger than one upload part (12 MB)', async () => {
    const key = `42/${randomBytes(8).toString('hex')}/video.mp4`;
    const big = bytes(12 * 1024 * 1024, 'c');
    expect(await storage().put(key, big.stream)).toEqual({ size: 12 * 1024 * 1024 });
    const got = await storage().get(key);
    expect(got?.contentType).toBe('video/mp4');
    expect(
      createHash('sha256')
        .update(await readAll(got!.stream))
        .digest('hex'),
    ).toBe(big.sha256);
  });

  it('refuses keys that are not media keys (no way out of the company folder)', async () => {
    for (const key of ['../etc/passwd', '42/../x/y', 'abc/x/y.png', '42/x', '42/x/y/z.png']) {
      await expect(storage().put(key, Readable.from([Buffer.from('x')]))).rejects.toThrow(/not a media key/);
    }
  });
});
