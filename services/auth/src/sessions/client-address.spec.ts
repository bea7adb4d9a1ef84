import { describe, expect, it } from '@jest/globals';
import { addressBucket } from './client-address.js';

describe('addressBucket (per-address limits)', () => {
  it('keeps an IPv4 address whole', () => {
    expect(addressBucket('203.0.113.7')).toBe('203.0.113.7');
    expect(addressBucket('203.0.113.8')).not.toBe(addressBucket('203.0.113.7'));
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4, in either notation', () => {
    expect(addressBucket('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressBucket('::FFFF:cb00:7107')).toBe('203.0.113.7');
    expect(addressBucket('0:0:0:0:0:ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('buckets IPv6 by its /64, however it is written', () => {
    const bucket = addressBucket('2001:db8:1:2::1');
    expect(bucket).toBe('2001:db8:1:2::/64');
    expect(addressBucket('2001:0db8:0001:0002:ffff:ffff:ffff:fffe')).toBe(bucket);
    expect(addressBucket('2001:DB8:1:2:a:b:c:d')).toBe(bucket);
    expect(addressBucket('2001:db8:1:3::1')).not.toBe(bucket);
    expect(addressBucket('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressBucket('::1')).toBe('0:0:0:0::/64');
    expect(addressBucket('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressBucket('64:ff9b::192.0.2.33')).toBe('64:ff9b:0:0::/64');
  });

  it('leaves anything that is not an address as it is', () => {
    expect(addressBucket(undefined)).toBe('unknown');
    expect(addressBucket('unknown')).toBe('unknown');
  });
});
