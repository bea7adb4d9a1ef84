import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import mime from 'mime-types';

/** A stored file, read as a stream (never held whole in memory). */
export interface StoredMedia {
  stream: Readable;
  size: number;
  contentType: string;
}

/**
 * Where media files live (messages' images, audio, video and documents, both ways). Keys are
 * `<companyId>/<folder>/<file name>`: the company first, so a reader checks the caller's company
 * against the key before anything is opened; the file name's extension gives the content type.
 * Implementations: local disk (one machine, or a volume every pod mounts) and an S3-compatible bucket
 * (s3-storage.ts).
 */
export abstract class MediaStorage {
  /** Stores a stream under a key (replacing what was there: a replayed message stores the same file again). */
  abstract put(key: string, body: Readable): Promise<{ size: number }>;
  /** The file, or null when there is none. */
  abstract get(key: string): Promise<StoredMedia | null>;
  abstract delete(key: string): Promise<void>;
  /** The file's size, or null when there is none. */
  abstract head(key: string): Promise<{ size: number } | null>;
  /** Every file of a company (its keys start with its id): a deleted company leaves none. */
  abstract deleteCompany(companyId: number): Promise<void>;
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/** A key this storage accepts: `<companyId>/<folder>/<name>`, plain segments, no `..`. */
export function isMediaKey(key: string): boolean {
  const parts = key.split('/');
  return parts.length === 3 && /^\d{1,10}$/.test(parts[0]) && parts.every((p) => SEGMENT.test(p) && !p.includes('..'));
}

/** The company a media key belongs to, or null when it is no media key. */
export function mediaKeyCompany(key: string): number | null {
  return isMediaKey(key) ? Number(key.split('/')[0]) : null;
}

/**
 * A file name safe in a key and a Content-Disposition: accents dropped, anything but letters, digits,
 * `.`, `-` and `_` made `_`, at most 100 characters, with `ext` (the type the bytes are) as extension.
 */
export function safeMediaName(name: string | null | undefined, ext: string, fallback = 'file'): string {
  const base = (name ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/\.[^.]*$/, '')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._-]+|[._-]+$/g, '')
    .replace(/\.{2,}/g, '.')
    .slice(0, 90);
  return `${base || fallback}.${ext.replace(/[^A-Za-z0-9]/g, '').slice(0, 8) || 'bin'}`;
}

/** Content type of a stored file, from its name's extension. */
export function mediaContentType(key: string): string {
  return mime.lookup(key) || 'application/octet-stream';
}

/** A key for a new file of a company (a fresh folder per file: names never collide). */
export function newMediaKey(companyId: number, name: string): string {
  return `${companyId}/${randomUUID()}/${name}`;
}

/**
 * The key of a received message's file: one per connection and WhatsApp id, so a replayed message finds
 * its file stored and a retried download writes the same file again.
 */
export function inboundMediaKey(companyId: number, connectionId: number, waMessageId: string, fileName: string): string {
  return `${companyId}/in-${connectionId}-${waMessageId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 150)}/${fileName}`;
}

/** The name a received file is kept under: a document's own name, else the message id; the extension of its type. */
export function inboundMediaName(waMessageId: string, mimetype: string, fileName: string | null): string {
  return safeMediaName(fileName ?? waMessageId, mime.extension(mimetype) || 'bin', 'media');
}

/** Files under a directory; a write lands under a temporary name and is renamed, so a reader never sees half a file. */
export class LocalDiskStorage extends MediaStorage {
  private readonly root: string;

  constructor(root: string) {
    super();
    this.root = isAbsolute(root) ? root : resolve(process.cwd(), root);
  }

  async put(key: string, body: Readable): Promise<{ size: number }> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.${randomUUID()}.part`;
    try {
      await pipeline(body, createWriteStream(tmp, { flags: 'wx' }));
      await rename(tmp, path);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    return { size: (await stat(path)).size };
  }

  async get(key: string): Promise<StoredMedia | null> {
    const found = await this.head(key);
    return found ? { stream: createReadStream(this.path(key)), size: found.size, contentType: mediaContentType(key) } : null;
  }

  async head(key: string): Promise<{ size: number } | null> {
    try {
      const s = await stat(this.path(key));
      return s.isFile() ? { size: s.size } : null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    const path = this.path(key);
    await rm(path, { force: true });
    await rmdir(dirname(path)).catch(() => undefined);
  }

  async deleteCompany(companyId: number): Promise<void> {
    if (!Number.isSafeInteger(companyId) || companyId <= 0) throw new Error(`not a company id: ${companyId}`);
    await rm(join(this.root, String(companyId)), { recursive: true, force: true });
  }

  private path(key: string): string {
    if (!isMediaKey(key)) throw new Error(`not a media key: ${key}`);
    return join(this.root, ...key.split('/'));
  }
}
