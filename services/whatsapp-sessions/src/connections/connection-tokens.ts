import { createHash, createHmac, randomBytes } from 'node:crypto';
import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { SecretBox } from '@wa/server-kit';
import type { EntityManager } from 'typeorm';
import { WhatsappSessionsEnv } from '../config/env.js';
import type { ConnectionEntity } from '../database/entities/connection.entity.js';
import { ConnectionTokensRepository } from './connection-tokens.repository.js';

/** A token the server issues: 32 random bytes (256 bits), base64url (43 characters). */
const ISSUED_BYTES = 32;
/** A token an admin chooses: at least this long, from letters, digits, - and _ ... */
export const TOKEN_MIN_LENGTH = 32;
export const TOKEN_MAX_LENGTH = 200;
/** ... and not one character repeated: at least this many different ones (32 random hex characters have ~14). */
const TOKEN_MIN_DISTINCT = 8;
const TOKEN_ALPHABET = /^[A-Za-z0-9_-]+$/;

/**
 * A connection's API token at rest: AES-256-GCM (the admins' form shows it again, so it must be
 * recoverable), with an HMAC of it for uniqueness and lookups. The database never holds it in clear;
 * events never carry it (admins read it over HTTP). Rows written before this held it in clear: they are
 * sealed when the service starts.
 */
@Injectable()
export class ConnectionTokens implements OnApplicationBootstrap {
  private readonly log = new Logger(ConnectionTokens.name);
  private readonly box: SecretBox;
  private readonly hmacKey: Buffer;

  constructor(
    env: WhatsappSessionsEnv,
    private readonly rows: ConnectionTokensRepository,
  ) {
    const material = env.CONNECTION_TOKEN_KEY || `dev-only:${env.JWT_SECRET}`;
    this.box = new SecretBox(material, 'connection-token');
    this.hmacKey = createHash('sha256').update(`connection-token:mac:${material}`).digest();
  }

  /** A new token, drawn by the server (what a connection gets unless its admin chooses one). */
  issue(): string {
    return randomBytes(ISSUED_BYTES).toString('base64url');
  }

  /** Whether an admin's token looks random enough to be a bearer secret (its uniqueness is checked apart). */
  static acceptable(plain: string): boolean {
    return (
      plain.length >= TOKEN_MIN_LENGTH &&
      plain.length <= TOKEN_MAX_LENGTH &&
      TOKEN_ALPHABET.test(plain) &&
      new Set(plain).size >= TOKEN_MIN_DISTINCT
    );
  }

  /** What to store for `plain` (null or empty: no token). */
  seal(plain: string | null | undefined): { token: string | null; tokenHash: string | null } {
    if (!plain) return { token: null, tokenHash: null };
    return { token: this.box.seal(plain), tokenHash: this.hashOf(plain) };
  }

  /** The token in clear, from what is stored (null when there is none or it cannot be opened with this key). */
  open(stored: string | null | undefined): string | null {
    if (!stored) return null;
    // a token written before tokens were sealed comes back as it is (sealed at the next start)
    const plain = this.box.open(stored);
    if (plain === null) this.log.error('a connection token cannot be opened with CONNECTION_TOKEN_KEY (was the key changed?)');
    return plain;
  }

  /** Whose is a token (the public API's bearer): the connection, found by the token's lookup hash. */
  owner(plain: string): Promise<Pick<ConnectionEntity, 'id' | 'companyId' | 'status'> | null> {
    return this.rows.byHash(this.hashOf(plain));
  }

  /** Some connection of any company has this token already. */
  taken(plain: string, manager?: EntityManager): Promise<boolean> {
    return this.rows.taken(this.hashOf(plain), manager);
  }

  /** The lookup hash of a token (the public API finds a connection by it). */
  hashOf(plain: string): string {
    return createHmac('sha256', this.hmacKey).update(plain).digest('hex');
  }

  async onApplicationBootstrap(): Promise<void> {
    let sealed = 0;
    for (const row of await this.rows.withoutHash()) {
      if (!row.token || SecretBox.isSealed(row.token)) continue;
      await this.rows.store(row.id, this.seal(row.token));
      sealed++;
    }
    if (sealed > 0) this.log.log({ sealed }, 'connection tokens stored in clear are now encrypted');
  }
}
