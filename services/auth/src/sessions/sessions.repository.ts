import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, IsNull, Not, type EntityManager } from 'typeorm';
import { LoginSessionEntity, RefreshTokenEntity } from '../database/entities/index.js';

export type EndReason = NonNullable<LoginSessionEntity['revokedReason']>;

/**
 * Sign-ins (`auth.login_sessions`) and their refresh tokens (`auth.refresh_tokens`). Not tenant-scoped: a sign-in
 * comes before any company is known, and a refresh token names its session only.
 */
@Injectable()
export class SessionsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  find(id: string): Promise<LoginSessionEntity | null> {
    return this.db.getRepository(LoginSessionEntity).findOneBy({ id });
  }

  /** The session, locked to the end of the transaction. */
  lockSession(tx: EntityManager, id: string): Promise<LoginSessionEntity | null> {
    return tx.getRepository(LoginSessionEntity).createQueryBuilder('s').setLock('pessimistic_write').where('s.id = :id', { id }).getOne();
  }

  /** The ids of a user's sessions not ended. */
  async activeOf(manager: EntityManager, userId: number): Promise<string[]> {
    return (await manager.getRepository(LoginSessionEntity).find({ where: { userId, revokedAt: IsNull() }, select: { id: true } })).map(
      (s) => s.id,
    );
  }

  /** The ids of a company's sessions not ended, locked to the end of the transaction. */
  async lockActiveOfCompany(tx: EntityManager, companyId: number): Promise<string[]> {
    return (
      await tx
        .getRepository(LoginSessionEntity)
        .find({ where: { companyId, revokedAt: IsNull() }, select: { id: true }, lock: { mode: 'pessimistic_write' } })
    ).map((s) => s.id);
  }

  /** The ids of every session of a company, ended or not. */
  async ofCompany(manager: EntityManager, companyId: number): Promise<string[]> {
    return (await manager.getRepository(LoginSessionEntity).find({ where: { companyId }, select: { id: true } })).map((s) => s.id);
  }

  /** How many sessions of the user are not ended, but `exceptId`. */
  countActiveOthers(userId: number, exceptId: string): Promise<number> {
    return this.db.getRepository(LoginSessionEntity).countBy({ userId, revokedAt: IsNull(), id: Not(exceptId) });
  }

  async insert(tx: EntityManager, session: Pick<LoginSessionEntity, 'id' | 'userId' | 'companyId' | 'ip' | 'userAgent'>): Promise<void> {
    await tx.getRepository(LoginSessionEntity).insert({ ...session, revokedAt: null, revokedReason: null });
  }

  /** Ends these sessions now (`ids` not empty). */
  async end(manager: EntityManager, ids: string[], reason: EndReason): Promise<void> {
    await manager
      .getRepository(LoginSessionEntity)
      .update(ids.length === 1 ? { id: ids[0] } : { id: In(ids) }, { revokedAt: new Date(), revokedReason: reason });
  }

  /** Ends the session unless it is already. */
  async endIfActive(id: string, reason: EndReason): Promise<void> {
    await this.db.getRepository(LoginSessionEntity).update({ id, revokedAt: IsNull() }, { revokedAt: new Date(), revokedReason: reason });
  }

  refreshToken(manager: EntityManager, tokenHash: string): Promise<RefreshTokenEntity | null> {
    return manager.getRepository(RefreshTokenEntity).findOneBy({ tokenHash });
  }

  async insertRefreshToken(tx: EntityManager, token: Pick<RefreshTokenEntity, 'sessionId' | 'tokenHash' | 'expiresAt'>): Promise<void> {
    await tx.getRepository(RefreshTokenEntity).insert({ ...token, usedAt: null });
  }

  /** Marks a refresh token used, unless it was already: true for the one caller that did. */
  async useRefreshToken(tx: EntityManager, id: number): Promise<boolean> {
    const rotated = await tx
      .getRepository(RefreshTokenEntity)
      .createQueryBuilder()
      .update()
      .set({ usedAt: () => 'now()' })
      .where('id = :id AND "usedAt" IS NULL', { id })
      .execute();
    return !!rotated.affected;
  }

  /** Deletes the refresh tokens of every session of a company (the company is being deleted). */
  async deleteRefreshTokensOfCompany(tx: EntityManager, companyId: number): Promise<void> {
    await tx.query(`DELETE FROM auth.refresh_tokens WHERE "sessionId" IN (SELECT id FROM auth.login_sessions WHERE "companyId" = $1)`, [
      companyId,
    ]);
  }
}
