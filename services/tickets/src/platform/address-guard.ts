import { DomainError } from '@wa/server-kit';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** Addresses a webhook must not reach unless the operator allows it: private, loopback, link-local and the like. */
const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(net, bits, 'ipv6');
}

/** Is this IP private, loopback, link-local, multicast or unspecified (an IPv4 inside IPv6 is read as IPv4)? */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1] as string, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export class PrivateAddressError extends Error {
  constructor(readonly host: string) {
    super(`${host} resolves to a private, loopback or link-local address`);
    this.name = 'PrivateAddressError';
  }
}

/**
 * A DNS lookup for the sockets of webhook deliveries: the address the connection goes to is the one checked
 * (a name that resolved to a public address when saved and to a private one now is refused now).
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as unknown as LookupAddress[];
      const usable = allowPrivate ? list : list.filter((a) => !isPrivateAddress(a.address));
      if (usable.length === 0) return callback(new PrivateAddressError(hostname) as NodeJS.ErrnoException, '', 0);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
      const first = usable[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}

/** The host's addresses now (a literal IP is itself). */
export function addressesOf(host: string): Promise<string[]> {
  const bare = host.replace(/^\[|\]$/g, '');
  if (isIP(bare)) return Promise.resolve([bare]);
  return new Promise((resolve, reject) =>
    dnsLookup(bare, { all: true }, (err, list) => (err ? reject(err) : resolve(list.map((a) => a.address)))),
  );
}

/**
 * A URL a company gives for the product to call (a webhook, a queue integration) must not lead into the
 * platform's own network: refused (ERR_VALIDATION on `field`) when its host resolves to a private, loopback
 * or link-local address, unless the operator allows it (WEBHOOK_ALLOW_PRIVATE).
 */
export async function assertPublicUrl(url: string, allowPrivate: boolean, field: string): Promise<void> {
  const refused = (message: string) => new DomainError('ERR_VALIDATION', { details: [{ field, messages: [message] }] }, message);
  let host: string;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('scheme');
    host = parsed.hostname;
  } catch {
    throw refused('URL inválida');
  }
  if (allowPrivate) return;
  let addresses: string[];
  try {
    addresses = await addressesOf(host);
  } catch {
    throw refused('Endereço não encontrado');
  }
  if (addresses.length === 0 || addresses.some(isPrivateAddress)) throw refused('Endereço não permitido: rede privada, local ou de link');
}
