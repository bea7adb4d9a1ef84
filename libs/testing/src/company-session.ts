import { signAccessToken, type DirectoryUser, type TokenRevocation, type UserDirectory } from '@wa/auth';
import type { AllTicket, Profile } from '@wa/contracts';
import { randomInt, randomUUID } from 'node:crypto';
import { TEST_JWT_SECRET } from './env.js';

/** A signed-in user of a test company: the ids and an access token of a login session of their own. */
export interface SessionUser {
  companyId: number;
  id: number;
  sid: string;
  token: string;
}

export interface SessionUserOptions {
  profile?: Profile;
  queueIds?: number[];
  name?: string;
  allTicket?: AllTicket;
  super?: boolean;
  /** An id of the caller's choice (default: the next one of this session). */
  id?: number;
  /** Write the user to the directory (default true, when the session has one). */
  inDirectory?: boolean;
  /** The access token's lifetime. */
  ttlSeconds?: number;
}

/**
 * A company of its own for each test (STYLE, "Tests": the shared test vocabulary): a company id no other test uses,
 * users written to the user directory as auth writes them, and access tokens signed as auth signs them. Give it the
 * service's `UserDirectory` to put users there, and its `TokenRevocation` to announce each entry's version the way
 * auth does (so a reader knows its copy is behind before the watch delivers).
 */
export class CompanySession {
  readonly companyId: number;
  /** far from auth's ids: revocations in Redis are per user id, and other suites revoke their users' tokens */
  private nextUser = randomInt(1_000_000_000, 1_900_000_000);
  private lastVersion = 0;

  constructor(
    private readonly deps: { directory?: UserDirectory; revocation?: TokenRevocation } = {},
    opts: { companyId?: number; idsFrom?: number } = {},
  ) {
    this.companyId = opts.companyId ?? (opts.idsFrom ?? 700_000) + randomInt(1, 99_999_999);
  }

  /** A user id no other test uses. */
  newUserId(): number {
    return this.nextUser++;
  }

  /** A user of this company in the directory, signed in. */
  async user(opts: SessionUserOptions = {}): Promise<SessionUser> {
    const id = opts.id ?? this.newUserId();
    const profile = opts.profile ?? 'user';
    if (opts.inDirectory !== false && this.deps.directory) {
      await this.writeUser({
        id,
        companyId: this.companyId,
        name: opts.name ?? `${profile} ${id}`,
        profile,
        queueIds: opts.queueIds ?? [],
        allTicket: opts.allTicket ?? 'desabled',
        super: !!opts.super,
      });
    }
    return { companyId: this.companyId, id, ...this.token(id, profile, { super: opts.super, ttlSeconds: opts.ttlSeconds }) };
  }

  /** Another login session of a user: a new session id and its access token. */
  token(id: number, profile: Profile = 'user', opts: { super?: boolean; ttlSeconds?: number } = {}): { sid: string; token: string } {
    const sid = randomUUID();
    return {
      sid,
      token: signAccessToken({ id, companyId: this.companyId, profile, super: !!opts.super, sid }, TEST_JWT_SECRET, opts.ttlSeconds),
    };
  }

  /** Writes a user's directory entry as auth does: stored, then (with a revocation) its version announced through Redis. */
  async writeUser(user: Omit<DirectoryUser, 'version'>): Promise<void> {
    const directory = this.deps.directory;
    if (!directory) throw new Error('CompanySession: no user directory to write to');
    if (!this.deps.revocation) return directory.put(user);
    const version = Math.max(Date.now(), this.lastVersion + 1);
    this.lastVersion = version;
    await directory.put({ ...user, version });
    await this.deps.revocation.announceUserVersion(user.companyId, user.id, version);
  }
}
