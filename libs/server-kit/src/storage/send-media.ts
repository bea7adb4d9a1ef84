import type { ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { StoredMedia } from './media-storage.js';

/**
 * A stored file as the answer to a GET: its type and length, `disposition` (shown in place or offered as a
 * download), never run by the browser (nosniff, a sandboxing CSP), cached as `cacheControl` says. The file
 * is streamed, never held whole.
 */
export async function sendStoredMedia(
  res: ServerResponse,
  found: StoredMedia,
  opts: { disposition: string; cacheControl: string },
): Promise<void> {
  res.setHeader('Content-Type', found.contentType);
  res.setHeader('Content-Length', String(found.size));
  res.setHeader('Content-Disposition', opts.disposition);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
  res.setHeader('Cache-Control', opts.cacheControl);
  try {
    await pipeline(found.stream, res);
  } catch {
    // the reader went away mid-file (or the storage failed after the headers): nothing more can be said
    res.destroy();
  }
}
