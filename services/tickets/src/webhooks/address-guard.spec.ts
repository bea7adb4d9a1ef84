import { describe, expect, it } from '@jest/globals';
import { assertPublicUrl, isPrivateAddress } from './address-guard.js';

describe('assertPublicUrl (webhooks and queue integrations)', () => {
  it('refuses a URL into loopback, private, link-local or metadata addresses unless the operator allows it', async () => {
    for (const url of ['http://127.0.0.1:9/x', 'http://10.1.2.3/', 'http://192.168.0.10/hook', 'http://169.254.169.254/latest/meta-data', 'http://[::1]:80/', 'http://0.0.0.0/']) {
      await expect(assertPublicUrl(url, false, 'urlN8N')).rejects.toMatchObject({ code: 'ERR_VALIDATION', extra: { details: [{ field: 'urlN8N', messages: ['Endereço não permitido: rede privada, local ou de link'] }] } });
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
