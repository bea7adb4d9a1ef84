import { describe, expect, it } from '@jest/globals';
import { subjectToken } from './subject-token.js';

describe('subjectToken', () => {
  it('keeps a value usable inside a NATS subject', () => {
    expect(subjectToken('a.b*c>d e')).toBe('a_b_c_d_e');
    expect(subjectToken('')).toBe('_');
  });
});
