import { describe, expect, it } from '@jest/globals';
import { adapterParser } from './adapter-parser.js';

describe('the adapter parser (JSON between replicas)', () => {
  const packet = { type: 2, data: ['company-1-ticket', { action: 'update', ticket: { id: 7, contact: { name: 'Zé' } } }], nsp: '/' };
  const opts = { rooms: ['c:1:all'], except: [], flags: {} };
  const JSON_PARSER = adapterParser();

  it('round-trips what another replica broadcast', () => {
    const wire = Buffer.from(JSON.stringify(['otherreplica0001', packet, opts]));
    expect(JSON_PARSER.decode(wire)).toEqual(['otherreplica0001', packet, opts]);
  });

  it('leaves its own broadcasts undecoded: only the uid, which the adapter drops', () => {
    const wire = Buffer.from(JSON_PARSER.encode(['thisreplica00001', packet, opts]));
    expect(JSON_PARSER.decode(wire)).toEqual(['thisreplica00001']);
  });

  it('decodes whole what another server of the same process broadcast', () => {
    const other = adapterParser();
    const wire = Buffer.from(other.encode(['samehostreplica1', packet, opts]));
    expect(JSON_PARSER.decode(wire)).toEqual(['samehostreplica1', packet, opts]);
  });

  it('decodes requests and responses (objects) whole', () => {
    const request = { type: 3, uid: 'thisreplica00001', requestId: 'r1', opts };
    expect(JSON_PARSER.decode(Buffer.from(JSON_PARSER.encode(request)))).toEqual(request);
  });
});
