/** Types a received picture, video or voice note is kept as; anything else declared falls back to the first. */
const SAFE_TYPES = {
  image: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'],
  video: ['video/mp4', 'video/3gpp', 'video/quicktime', 'video/webm'],
  audio: ['audio/ogg', 'audio/mpeg', 'audio/mp4', 'audio/aac', 'audio/amr', 'audio/webm', 'audio/wav'],
} as const;

/** Document types a browser would run (pages, scripts, vector images with scripts): kept as plain bytes. */
const ACTIVE_TYPES = /html|xhtml|svg|javascript|ecmascript|xml-dtd|x-shockwave|x-msdownload/i;

/**
 * The type a received file is kept and served as. The sender declares it and nothing checks the bytes,
 * so pictures, videos and audio keep only a type of their kind, and a document declared as something a
 * browser would run (HTML, SVG, script) is kept as `application/octet-stream`.
 */
export function safeInboundType(kind: 'image' | 'video' | 'audio' | 'document', declared: string): string {
  const type = declared.split(';')[0].trim().toLowerCase();
  if (kind === 'document') return !type || ACTIVE_TYPES.test(type) ? 'application/octet-stream' : type;
  const allowed: readonly string[] = SAFE_TYPES[kind];
  return allowed.includes(type) ? type : allowed[0];
}
