import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { directoryPutEvent, signAccessToken, TokenRevocation } from '@wa/auth';
import {
  PASSWORD_RULE,
  PASSWORD_RULE_TEXT,
  Subjects,
  type AccessTokenClaims,
  type LoginResponse,
  type SessionReplacedEvent,
  type UserDto,
} from '@wa/contracts';
import { DomainError, invalidField } from '@wa/server-kit';
import { brDate, companyTimeZone, TIME_ZONE_SETTING, todayIn } from '@wa/domain';
import argon2 from 'argon2';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { CompaniesRepository } from '../companies/companies.repository.js';
import { AuthEnv } from '../config/env.js';
import type { CompanyEntity } from '../database/entities/index.js';
import { PlansRepository } from '../plans/plans.repository.js';
import { SettingsRepository } from '../settings/settings.repository.js';
import { companyView, directoryEntry, userView } from '../users/user-view.js';
import { Outbox, type OutgoingEvent } from '../outbox/outbox.service.js';
import { UsersRepository } from '../users/users.repository.js';
import { LoginLimiter } from './login-limiter.js';
import { SessionsRepository, type EndReason } from './sessions.repository.js';

export interface IssuedSession extends LoginResponse {
  refreshToken: string;
  refreshExpiresAt: Date;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

// Verifying against a fixed hash when the email is unknown keeps both failures equally slow.
const DUMMY_HASH = argon2.hash('not-a-password-' + randomUUID());

@Injectable()
export class SessionsService {
  private readonly logger = new Logger(SessionsService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly sessions: SessionsRepository,
    private readonly users: UsersRepository,
    private readonly companies: CompaniesRepository,
    private readonly plans: PlansRepository,
    private readonly settings: SettingsRepository,
    private readonly env: AuthEnv,
    private readonly limiter: LoginLimiter,
    private readonly revocation: TokenRevocation,
    private readonly outbox: Outbox,
  ) {}

  async login(emailRaw: string, password: string, ip: string, userAgent: string | undefined, newPassword?: string): Promise<IssuedSession> {
    const email = emailRaw.trim().toLowerCase();
    // counted before the password is checked: a burst of parallel tries gets no more than the limit through
    await this.limiter.attempt(email, ip);
    const user = await this.users.byEmail(email, true);
    const valid = user ? await argon2.verify(user.passwordHash, password) : (await argon2.verify(await DUMMY_HASH, password), false);
    if (!user || !valid) throw new DomainError('ERR_INVALID_CREDENTIALS');
    await this.limiter.succeeded(email, ip);
    // a password someone else chose (the first super user's) is good for one thing: setting one's own
    let newHash: string | undefined;
    if (user.mustChangePassword) {
      if (!newPassword) throw new DomainError('ERR_PASSWORD_CHANGE_REQUIRED');
      if (newPassword === password) {
        throw invalidField('newPassword', 'A nova senha deve ser diferente da atual');
      }
      // the password rule every password a user chooses follows (spec 02 §5)
      if (!PASSWORD_RULE.test(newPassword)) {
        throw new DomainError(
          'ERR_VALIDATION',
          { details: [{ field: 'newPassword', messages: [PASSWORD_RULE_TEXT] }] },
          PASSWORD_RULE_TEXT,
        );
      }
      newHash = await argon2.hash(newPassword, { type: argon2.argon2id });
    }

    await this.assertSubscription(user);

    const sessionId = randomUUID();
    const { refreshToken, expiresAt, ended, version, outboxIds } = await this.db.transaction(async (tx) => {
      // One browser per account: a new sign-in ends the others.
      const ended = await this.sessions.activeOf(tx, user.id);
      if (ended.length > 0) await this.sessions.end(tx, ended, 'replaced');
      await this.sessions.insert(tx, {
        id: sessionId,
        userId: user.id,
        companyId: user.companyId,
        ip,
        userAgent: userAgent?.slice(0, 300) ?? null,
      });
      const issued = await this.issueRefreshToken(tx, sessionId);
      const events: OutgoingEvent[] = [];
      if (ended.length > 0) {
        const event: SessionReplacedEvent = {
          companyId: user.companyId,
          userId: user.id,
          sessionId,
          endedSessionIds: ended,
          at: new Date().toISOString(),
        };
        events.push({ subject: Subjects.sessionReplaced(user.companyId, user.id), msgId: `session-replaced:${sessionId}`, payload: event });
      }
      // the update locks the user's row, so this entry and an admin's concurrent change reach the directory in commit order
      await this.users.updateById(
        tx,
        user.id,
        newHash ? { online: true, passwordHash: newHash, mustChangePassword: false } : { online: true },
      );
      const current = await this.users.byId(user.id, tx);
      // users that predate the directory (the seed, an import) enter it when they sign in
      if (current) events.push(directoryPutEvent(directoryEntry(current), current.updatedAt.getTime()));
      return { ...issued, ended, version: current?.updatedAt.getTime() ?? 0, outboxIds: await this.outbox.add(tx, events) };
    });
    // the next request anywhere finds the user in the directory (see UsersService.announce)
    if (await this.outbox.flushAndWait(outboxIds)) await this.revocation.announceUserVersion(user.companyId, user.id, version);
    if (ended.length > 0) await this.revocation.revokeSessions(ended, 'replaced');
    const view = await this.userWithCompany(user.id);
    return { token: this.accessToken(view, sessionId), user: view, refreshToken, refreshExpiresAt: expiresAt };
  }

  /**
   * Rotates a refresh token. A token already rotated means it was stolen or replayed:
   * the whole login is ended (reuse detection).
   */
  async refresh(refreshToken: string | undefined): Promise<IssuedSession> {
    if (!refreshToken) throw new DomainError('ERR_SESSION_EXPIRED');
    const hash = sha256(refreshToken);
    const result = await this.db.transaction(async (tx) => {
      const row = await this.sessions.refreshToken(tx, hash);
      if (!row) return { kind: 'unknown' as const };
      const session = await this.sessions.lockSession(tx, row.sessionId);
      if (!session || session.revokedAt) return { kind: 'ended' as const };
      // Only one caller can rotate a given token.
      const rotated = await this.sessions.useRefreshToken(tx, row.id);
      if (!rotated || row.expiresAt < new Date()) {
        await this.sessions.end(tx, [session.id], 'reuse');
        return { kind: rotated ? ('expired' as const) : ('reused' as const), session };
      }
      const issued = await this.issueRefreshToken(tx, session.id);
      return { kind: 'ok' as const, session, ...issued };
    });
    if (result.kind !== 'ok') {
      if (result.kind === 'reused' || result.kind === 'expired') {
        await this.revocation.revokeSessions([result.session.id]);
        if (result.kind === 'reused') {
          this.logger.warn({ userId: result.session.userId, sessionId: result.session.id }, 'refresh token reuse: login ended');
        }
      }
      throw new DomainError('ERR_SESSION_EXPIRED');
    }
    const view = await this.userWithCompany(result.session.userId);
    // a company past its due date gets no new access token, as it gets no sign-in
    await this.assertSubscription(view);
    return {
      token: this.accessToken(view, result.session.id),
      user: view,
      refreshToken: result.refreshToken,
      refreshExpiresAt: result.expiresAt,
    };
  }

  /** A disabled company, or one past its due date, signs in no one but super users (spec: ERR_SUBSCRIPTION_EXPIRED). */
  private async assertSubscription(user: { companyId: number; super: boolean }): Promise<void> {
    if (user.super) return;
    const company = await this.companyOf(user.companyId);
    // a company the provider disabled signs in no one
    if (!company.status)
      throw new DomainError(
        'ERR_NO_PERMISSION',
        { companyDisabled: true },
        'Esta empresa está desativada. Entre em contato com o Suporte para mais informações!',
      );
    // the due date lasts to the end of that day on the company's own calendar
    const zone = await this.settings.find(company.id, TIME_ZONE_SETTING);
    if (company.dueDate < todayIn(companyTimeZone(zone?.value))) {
      throw new DomainError(
        'ERR_SUBSCRIPTION_EXPIRED',
        { dueDate: company.dueDate },
        `Opss! Sua assinatura venceu ${brDate(company.dueDate)}. Entre em contato com o Suporte para mais informações!`,
      );
    }
  }

  async logout(refreshToken: string | undefined, caller: AccessTokenClaims | undefined): Promise<void> {
    let sessionId = caller?.sid;
    if (!sessionId && refreshToken) {
      sessionId = (await this.sessions.refreshToken(this.db.manager, sha256(refreshToken)))?.sessionId;
    }
    if (!sessionId) return;
    const session = await this.sessions.find(sessionId);
    if (!session) return;
    await this.sessions.endIfActive(sessionId, 'logout');
    await this.revocation.revokeSessions([sessionId]);
    const stillActive = await this.sessions.countActiveOthers(session.userId, sessionId);
    if (stillActive === 0) await this.users.updateById(this.db.manager, session.userId, { online: false });
  }

  /** Ends every login of a user (deleted user, new password), but `keep`; answers the ended ones for revocation. */
  async endAllSessions(manager: EntityManager, userId: number, opts: { keep?: string; reason?: EndReason } = {}): Promise<string[]> {
    const ending = (await this.sessions.activeOf(manager, userId)).filter((id) => id !== opts.keep);
    if (ending.length > 0) await this.sessions.end(manager, ending, opts.reason ?? 'user_deleted');
    return ending;
  }

  async userWithCompany(userId: number): Promise<UserDto> {
    const user = await this.users.byId(userId);
    if (!user) throw new DomainError('ERR_SESSION_EXPIRED');
    const company = await this.companyOf(user.companyId);
    const [plan, settings] = await Promise.all([this.plans.find(company.planId), this.settings.ofCompany(company.id)]);
    if (!plan) throw new Error(`company ${company.id}: plan ${company.planId} not found`);
    return userView(user, companyView(company, plan, settings));
  }

  /** The user's company (there always is one: a company's users go with it). */
  private async companyOf(id: number): Promise<CompanyEntity> {
    const company = await this.companies.find(this.db.manager, id);
    if (!company) throw new Error(`company ${id} not found`);
    return company;
  }

  private accessToken(user: UserDto, sessionId: string): string {
    return signAccessToken(
      { id: user.id, companyId: user.companyId, profile: user.profile, super: user.super, sid: sessionId },
      this.env.JWT_SECRET,
    );
  }

  private async issueRefreshToken(tx: EntityManager, sessionId: string): Promise<{ refreshToken: string; expiresAt: Date }> {
    const refreshToken = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + this.env.REFRESH_TTL_DAYS * 86_400_000);
    await this.sessions.insertRefreshToken(tx, { sessionId, tokenHash: sha256(refreshToken), expiresAt });
    return { refreshToken, expiresAt };
  }
}
