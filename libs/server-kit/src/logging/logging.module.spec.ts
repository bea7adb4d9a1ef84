import { describe, expect, it } from '@jest/globals';
import { loggedPath } from './logging.module.js';

describe('request log paths', () => {
  it('masks the segments of the password-reset calls (code and new password are in the path) and drops query strings', () => {
    expect(loggedPath('/resetpasswords/ana%40loja.test/123456/NovaSenha123')).toBe('/resetpasswords/[redacted]');
    expect(loggedPath('/forgetpassword/ana@loja.test?x=1')).toBe('/forgetpassword/[redacted]');
    expect(loggedPath('/tickets/12?status=open')).toBe('/tickets/12');
    expect(loggedPath('/resetpasswordsX/a')).toBe('/resetpasswordsX/a');
  });
});
