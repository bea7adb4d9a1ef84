import { describe, expect, it } from '@jest/globals';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { assertPublicUrl, guardedLookup, isPrivateAddress } from './address-guard.js';

describe('assertPublicUrl (webhooks and queue integrations)', () => {
  it('refuses a URL into loopback, private, link-local or metadata addresses unless the operator allows it', async () => {
    for (const url of [
      'http://127.0.0.1:9/x',
      'http://10.1.2.3/',
      'http://192.168.0.10/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]:80/',
      'http://0.0.0.0/',
    ]) {
      await expect(assertPublicUrl(url, false, 'urlN8N')).rejects.toMatchObject({
        code: 'ERR_VALIDATION',
        extra: { details: [{ field: 'urlN8N', messages: ['Endereço não permitido: rede privada, local ou de link'] }] },
      });
      await expect(assertPublicUrl(url, true, 'urlN8N')).resolves.toBeUndefined();
    }
    await expect(assertPublicUrl('http://8.8.8.8/hook', false, 'url')).resolves.toBeUndefined();
  });

  it('refuses what is not an http(s) URL, allowed or not', async () => {
    for (const url of ['ftp://example.com/x', 'not a url', 'file:///etc/passwd']) {
      await expect(assertPublicUrl(url, true, 'url')).rejects.toMatchObject({ code: 'ERR_VALIDATION' });
    }
  });

  it('reads an IPv4 inside IPv6 as IPv4', () => {
    expect(isPrivateAddress('::ffff:127.0.0.1')).toBe(true);
    expect(isPrivateAddress('::ffff:8.8.8.8')).toBe(false);
  });
});

describe('guardedLookup (the sockets of webhook deliveries and queue integrations)', () => {
  it('will not connect to a name that resolves into the platform’s network unless the operator allows it', async () => {
    // a real peer on loopback, reached by name (a name is looked up when the socket connects, as a rebound one would be)
    const server = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://localhost:${(server.address() as AddressInfo).port}/hook`;
    const call = async (allowPrivate: boolean) => {
      const dispatcher = new Agent({ connect: { lookup: guardedLookup(allowPrivate), timeout: 2000 } });
      try {
        const res = await request(url, { dispatcher, method: 'POST', body: '{}' });
        return { status: res.statusCode, body: await res.body.text() };
      } catch (err) {
        return { refused: (err as Error).name };
      } finally {
        await dispatcher.close();
      }
    };
    try {
      expect(await call(false)).toEqual({ refused: 'PrivateAddressError' });
      expect(await call(true)).toEqual({ status: 200, body: 'ok' });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
