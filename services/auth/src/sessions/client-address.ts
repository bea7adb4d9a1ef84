import { isIPv4, isIPv6 } from 'node:net';

/**
 * The bucket a per-address limit counts a client in (sign-in, sign-up, password reset): an IPv4 address
 * whole; an IPv6 address by its /64, the block one subscriber usually gets whole (counting by the full
 * address, one client could take a new address for every attempt); an IPv4-mapped IPv6 (`::ffff:1.2.3.4`,
 * as a dual-stack socket shows an IPv4 client) as the IPv4 it is. Anything else (no address) as it is.
 */
export function addressBucket(address: string | undefined): string {
  if (!address) return 'unknown';
  const plain = address.trim().replace(/%.*$/, ''); // a zone id (fe80::1%eth0) is no part of the address
  if (isIPv4(plain)) return plain;
  if (!isIPv6(plain)) return plain;
  const groups = ipv6Groups(plain);
  // ::ffff:a.b.c.d, written either way
  const [, , , , , mark, hi = 0, lo = 0] = groups;
  if (groups.slice(0, 5).every((g) => g === 0) && mark === 0xffff) return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join('.');
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a trailing dotted IPv4 as two groups). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  return tail === undefined ? left : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}
