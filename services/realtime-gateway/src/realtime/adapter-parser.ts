/**
 * What the replicas say to each other through Redis, as JSON: every payload here is JSON already (no binary
 * attachments), and V8's own JSON costs a fraction of the msgpack encoder the adapter uses by default.
 * A replica also receives its own broadcasts, which the adapter decodes only to see its own uid and drop
 * them: those are recognised by their first bytes and left undecoded. One parser per socket.io server:
 * it knows the uids its own adapters broadcast with (broadcasts travel as `[uid, packet, opts]`).
 */
export function adapterParser(): { encode(value: unknown): string; decode(raw: Buffer | string): unknown } {
  const ownUids = new Set<string>();
  return {
    encode(value) {
      if (Array.isArray(value) && typeof value[0] === 'string') ownUids.add(value[0]);
      return JSON.stringify(value);
    },
    decode(raw) {
      const head = typeof raw === 'string' ? raw.slice(0, 80) : raw.toString('utf8', 0, 80);
      if (head.startsWith('["')) {
        const uid = head.slice(2, head.indexOf('"', 2));
        if (ownUids.has(uid)) return [uid];
      }
      return JSON.parse(typeof raw === 'string' ? raw : raw.toString('utf8'));
    },
  };
}
