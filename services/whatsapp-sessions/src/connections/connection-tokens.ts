import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull, Not } from 'typeorm';
import { WhatsappSessionsEnv } from '../config/env.js';
import { ConnectionEntity } from '../database/entities/connection.entity.js';

const PREFIX = 'enc:v1:';

/**
 * A connection's API token at rest: AES-256-GCM (the admins' form shows it again, so it must be
 * recoverable), with an HMAC of it for uniqueness and lookups. The database never holds it in clear;
 * events never carry it (admins read it over HTTP). Rows written before this held it in clear: they are
 * sealed when the service starts.
 */
@Injectable()
export class ConnectionTokens implements OnApplicationBootstrap {
  private readonly log = new Logger(ConnectionTokens.name);
  private readonly key: Buffer;
  private readonly hmacKey: Buffer;

  constructor(
    env: WhatsappSessionsEnv,
    @InjectDataSource() private readonly db: DataSource,
  ) {
    const material = env.CONNECTION_TOKEN_KEY || `dev-only:${env.JWT_SECRET}`;
    this.key = createHash('sha256').update(`connection-token:enc:${material}`).digest();
    this.hmacKey = createHash('sha256').update(`connection-token:mac:${material}`).digest();
  }

  /** What to store for `plain` (null or empty: no token). */
  seal(plain: string | null | undefined): { token: string | null; tokenHash: string | null } {
    if (!plain) return { token: null, tokenHash: null };
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return { token: `${PREFIX}${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url')}`, tokenHash: this.hashOf(plain) };
  }

  /** The token in clear, from what is stored (null when there is none or it cannot be opened with this key). */
  open(stored: string | null | undefined): string | null {
    if (!stored) return null;
    if (!stored.startsWith(PREFIX)) return stored; // written before tokens were sealed; sealed at the next start
    try {
      const raw = Buffer.from(stored.slice(PREFIX.length), 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      this.log.error('a connection token cannot be opened with CONNECTION_TOKEN_KEY (was the key changed?)');
      return null;
    }
  }

  /** The lookup hash of a token (the public API finds a connection by it). */
  hashOf(plain: string): string {
    return createHmac('sha256', this.hmacKey).update(plain).digest('hex');
  }

  async onApplicationBootstrap(): Promise<void> {
    const repo = this.db.getRepository(ConnectionEntity);
    const rows = await repo.find({ where: { token: Not(IsNull()), tokenHash: IsNull() }, select: { id: true, token: true } });
    let sealed = 0;
    for (const row of rows) {
      if (!row.token || row.token.startsWith(PREFIX)) continue;
      await repo.update({ id: row.id }, this.seal(row.token));
      sealed++;
    }
    if (sealed > 0) this.log.log({ sealed }, 'connection tokens stored in clear are now encrypted');
  }
}
