import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { TokenRevocation } from '@wa/auth';
import { PASSWORD_RULE, PASSWORD_RULE_TEXT } from '@wa/contracts';
import { DomainError, REDIS } from '@wa/server-kit';
import argon2 from 'argon2';
import type { Redis } from 'ioredis';
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import nodemailer, { type Transporter } from 'nodemailer';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { DataSource } from 'typeorm';
import { AuthEnv } from '../config/env.js';
import { UserEntity } from '../database/entities/index.js';
import { UsersRepository } from '../users/users.repository.js';
import { PasswordResetsRepository } from './password-resets.repository.js';
import { addressBucket } from '../sessions/client-address.js';
import { tooMany } from '../sessions/login-limiter.js';
import { SessionsService } from '../sessions/sessions.service.js';
/** Digits of a reset code: 10^8 codes, each surviving MAX_TRIES wrong tries, at most RESET_MAX_PER_EMAIL_DAY a day. */
export const RESET_CODE_DIGITS = 8;
/** Wrong codes a code survives. */
const MAX_TRIES = 5;

const hashOf = (userId: number, code: string) => createHash('sha256').update(`${userId}:${code}`).digest('hex');
const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * Password reset in two steps (spec 02): a code sent by email, then the code with the new password. Only the
 * code's hash is stored; it has RESET_CODE_DIGITS digits, expires after RESET_CODE_TTL_S, works once, dies after
 * a few wrong tries, and a new one replaces the older. Asking is limited per email (in the window and per day)
 * and per address (an address cannot use the
 * "Email não encontrado" answer to list accounts quickly). A reset ends every session of the user.
 */
@Injectable()
export class PasswordResetService implements OnApplicationShutdown {
  private readonly log = new Logger(PasswordResetService.name);
  private readonly mailer: Transporter;
  private readonly byEmail: RateLimiterRedis;
  private readonly byEmailDaily: RateLimiterRedis;
  private readonly byIp: RateLimiterRedis;
  private readonly triesByIp: RateLimiterRedis;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly users: UsersRepository,
    private readonly resets: PasswordResetsRepository,
    @Inject(REDIS) redis: Redis,
    private readonly env: AuthEnv,
    private readonly sessions: SessionsService,
    private readonly revocation: TokenRevocation,
  ) {
    this.mailer = nodemailer.createTransport(env.SMTP_URL, { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 });
    const common = { storeClient: redis, duration: env.RESET_WINDOW_S, blockDuration: env.RESET_WINDOW_S };
    this.byEmail = new RateLimiterRedis({ ...common, keyPrefix: 'auth:reset-ask:email', points: env.RESET_MAX_PER_EMAIL });
    this.byIp = new RateLimiterRedis({ ...common, keyPrefix: 'auth:reset-ask:ip', points: env.RESET_MAX_PER_IP });
    // per account and day, whether the account exists or not (the answer past it tells nothing about it)
    this.byEmailDaily = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: 'auth:reset-ask:email-day',
      points: env.RESET_MAX_PER_EMAIL_DAY,
      duration: 86_400,
      blockDuration: 86_400,
    });
    this.triesByIp = new RateLimiterRedis({ ...common, keyPrefix: 'auth:reset-try:ip', points: env.RESET_MAX_PER_IP * MAX_TRIES });
  }

  onApplicationShutdown(): void {
    this.mailer.close();
  }

  /** POST /forgetpassword/{email}: a new code by email; 404 'Email não encontrado' for an unknown address. */
  async ask(emailRaw: string, ip: string): Promise<{ message: string }> {
    const email = emailRaw.trim().toLowerCase();
    await this.consume(this.byIp, addressBucket(ip));
    await this.consume(this.byEmail, email);
    await this.consume(this.byEmailDaily, email);
    const user = await this.userOf(email);
    if (!user) throw new DomainError('ERR_EMAIL_NOT_FOUND');
    const code = String(randomInt(0, 10 ** RESET_CODE_DIGITS)).padStart(RESET_CODE_DIGITS, '0');
    // a new code replaces the ones asked before
    const id = await this.db.transaction((tx) => this.resets.replace(tx, user.id, hashOf(user.id, code), this.env.RESET_CODE_TTL_S));
    const minutes = Math.round(this.env.RESET_CODE_TTL_S / 60);
    try {
      await this.mailer.sendMail({
        from: this.env.MAIL_FROM,
        to: user.email,
        subject: 'Código para redefinir sua senha',
        text: `Olá, ${user.name}!\n\nSeu código para redefinir a senha é: ${code}\n\nEle vale por ${minutes} minutos e pode ser usado uma vez. Se você não pediu, ignore este email: sua senha continua a mesma.`,
      });
    } catch (err) {
      await this.resets.remove(id);
      this.log.error({ err: (err as Error)?.message }, 'password reset mail not sent');
      throw new DomainError('ERR_SERVICE_UNAVAILABLE', {}, 'O email não pôde ser enviado agora. Tente novamente em instantes.');
    }
    return { message: 'Email enviado com sucesso!' };
  }

  /** POST /resetpasswords/{email}/{token}/{newPassword}: the code once, then the new password; every session ends. */
  async reset(emailRaw: string, code: string, newPassword: string, ip: string): Promise<{ message: string }> {
    if (!PASSWORD_RULE.test(newPassword)) {
      throw new DomainError('ERR_VALIDATION', { details: [{ field: 'newPassword', messages: [PASSWORD_RULE_TEXT] }] }, PASSWORD_RULE_TEXT);
    }
    await this.consume(this.triesByIp, addressBucket(ip));
    // hashed first: a known and an unknown email take the same time
    const passwordHash = await argon2.hash(newPassword, { type: argon2.argon2id });
    const email = emailRaw.trim().toLowerCase();
    const user = await this.userOf(email);
    if (!user || code.length !== RESET_CODE_DIGITS || !/^\d+$/.test(code)) throw new DomainError('ERR_INVALID_RESET_CODE');
    const ended = await this.db.transaction(async (tx) => {
      const current = await this.resets.current(tx, user.id);
      if (!current) return null;
      if (!sameHash(current.codeHash, hashOf(user.id, code))) {
        await this.resets.wrongTry(tx, current.id, MAX_TRIES);
        return null;
      }
      await this.resets.useAll(tx, user.id);
      await this.users.updateById(tx, user.id, { passwordHash, mustChangePassword: false });
      return this.sessions.endAllSessions(tx, user.id, { reason: 'password_changed' });
    });
    if (ended === null) throw new DomainError('ERR_INVALID_RESET_CODE');
    await this.revocation.revokeSessions(ended);
    await this.revocation.revokeUserTokensBefore(user.id);
    return { message: 'Senha redefinida com sucesso.' };
  }

  private userOf(email: string): Promise<UserEntity | null> {
    return this.users.byEmail(email);
  }

  private async consume(limiter: RateLimiterRedis, key: string): Promise<void> {
    try {
      await limiter.consume(key, 1);
    } catch (err) {
      if (err instanceof RateLimiterRes) throw tooMany(err);
      throw err;
    }
  }
}
