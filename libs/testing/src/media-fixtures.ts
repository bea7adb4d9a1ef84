import { deflateSync } from 'node:zlib';

/** CRC-32 of PNG chunks. */
function crc32(buf: Buffer): number {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/**
 * A real PNG (any viewer opens it): `size` × `size` pixels of one colour, padded with a private ancillary
 * chunk to `padTo` bytes when asked (a large photo for size limits and benchmarks).
 */
export function pngFile(opts: { size?: number; rgb?: [number, number, number]; padTo?: number } = {}): Buffer {
  const size = opts.size ?? 2;
  const [r, g, b] = opts.rgb ?? [0, 128, 255];
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => [r, g, b]).flat())]);
  const raw = Buffer.concat(Array.from({ length: size }, () => row));
  const parts = [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw))];
  const end = chunk('IEND', Buffer.alloc(0));
  const current = parts.reduce((n, p) => n + p.length, 0) + end.length;
  if (opts.padTo && opts.padTo > current + 12) {
    const pad = Buffer.alloc(opts.padTo - current - 12);
    for (let i = 0; i < pad.length; i += 4096) pad[i] = i & 0xff;
    parts.push(chunk('prVt', pad));
  }
  return Buffer.concat([...parts, end]);
}

/** A one-page PDF. */
export function pdfFile(text = 'Conversa'): Buffer {
  return Buffer.from(
    `%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 100]/Contents 4 0 R>>endobj\n4 0 obj<</Length 44>>stream\nBT /F1 12 Tf 20 50 Td (${text}) Tj ET\nendstream endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n`,
  );
}

/** An MP3 frame stream (MPEG-1 Layer III, 128 kbps, 44.1 kHz) of silence, `frames` long, behind an ID3v2 tag. */
export function mp3File(frames = 40): Buffer {
  const id3 = Buffer.from([0x49, 0x44, 0x33, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]);
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x64]);
  return Buffer.concat([id3, ...Array.from({ length: frames }, () => frame)]);
}

/** A multipart form with files (name, bytes, declared type) and text fields. */
export function mediaForm(
  files: Array<{ field: string; name: string; data: Buffer; type?: string }>,
  fields: Record<string, string> = {},
): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) form.append(f.field, new Blob([new Uint8Array(f.data)], { type: f.type ?? 'application/octet-stream' }), f.name);
  return form;
}
