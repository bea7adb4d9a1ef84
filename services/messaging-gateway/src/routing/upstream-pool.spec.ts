import { describe, expect, it } from '@jest/globals';
import { UpstreamPool } from './upstream-pool.js';

describe('UpstreamPool', () => {
  it('sends each call to the next replica in turn, passing over one that refused a connection', () => {
    const pool = new UpstreamPool('http://127.0.0.1:3103, http://127.0.0.1:3113,http://127.0.0.1:3123');
    expect([pool.pick(), pool.pick(), pool.pick(), pool.pick()]).toEqual([
      'http://127.0.0.1:3103',
      'http://127.0.0.1:3113',
      'http://127.0.0.1:3123',
      'http://127.0.0.1:3103',
    ]);
    pool.down('http://127.0.0.1:3113');
    expect([pool.pick(), pool.pick(), pool.pick()]).toEqual(['http://127.0.0.1:3123', 'http://127.0.0.1:3103', 'http://127.0.0.1:3123']);
    // all refused: calls still go somewhere (one may be back)
    pool.down('http://127.0.0.1:3103');
    pool.down('http://127.0.0.1:3123');
    expect(pool.urls).toContain(pool.pick());
  });

  it('with one address, always that one, even after a refusal', () => {
    const pool = new UpstreamPool('http://127.0.0.1:3103');
    pool.down('http://127.0.0.1:3103');
    expect([pool.pick(), pool.pick()]).toEqual(['http://127.0.0.1:3103', 'http://127.0.0.1:3103']);
  });
});
