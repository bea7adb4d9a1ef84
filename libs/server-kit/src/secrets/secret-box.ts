import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const PREFIX = 'enc:v1:';

/**
 * A secret the product must show or use again (a connection's API token, an AI prompt's API key) kept at
 * rest with AES-256-GCM under a key derived from the service's key material and the secret's purpose.
 * `open` of a value written before sealing (no prefix) answers it as it is, so old rows keep working.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(material: string, purpose: string) {
    this.key = createHash('sha256').update(`${purpose}:enc:${material}`).digest();
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${PREFIX}${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url')}`;
  }

  /** The secret in clear; null when it cannot be opened with this key (the key changed, the value is damaged). */
  open(stored: string): string | null {
    if (!SecretBox.isSealed(stored)) return stored;
    try {
      const raw = Buffer.from(stored.slice(PREFIX.length), 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }

  static isSealed(stored: string): boolean {
    return stored.startsWith(PREFIX);
  }
}

/** What a form shows of a secret: its last four characters, the rest masked ('' when there is none). */
export function maskSecret(plain: string | null | undefined): string {
  if (!plain) return '';
  return `${'•'.repeat(8)}${plain.length > 8 ? plain.slice(-4) : ''}`;
}
