import { describe, expect, it } from '@jest/globals';
import { maskSecret, SecretBox } from './secret-box.js';

describe('SecretBox', () => {
  it('seals a secret so the stored text does not hold it, and opens it again with the same key only', () => {
    const box = new SecretBox('material', 'prompt-api-key');
    const sealed = box.seal('sk-live-123456789');
    expect(sealed).not.toContain('sk-live');
    expect(SecretBox.isSealed(sealed)).toBe(true);
    expect(box.open(sealed)).toBe('sk-live-123456789');
    // another key, or another purpose, cannot open it
    expect(new SecretBox('other', 'prompt-api-key').open(sealed)).toBeNull();
    expect(new SecretBox('material', 'connection-token').open(sealed)).toBeNull();
    // each sealing differs (a fresh IV)
    expect(box.seal('sk-live-123456789')).not.toBe(sealed);
    // a value stored before sealing comes back as it is
    expect(box.open('plain-old')).toBe('plain-old');
  });

  it('masks a secret to its last four characters', () => {
    expect(maskSecret('sk-live-123456789')).toBe('••••••••6789');
    expect(maskSecret('short')).toBe('••••••••');
    expect(maskSecret(null)).toBe('');
  });
});
