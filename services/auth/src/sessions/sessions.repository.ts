import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { LoginSessionEntity, RefreshTokenEntity } from '../database/entities/index.js';

/** Sign-ins (`auth.login_sessions`) and their refresh tokens (`auth.refresh_tokens`), in the caller's transaction. */
@Injectable()
export class SessionsRepository {
  /** The session, locked to the end of the transaction. */
  lockSession(tx: EntityManager, id: string): Promise<LoginSessionEntity | null> {
    return tx.getRepository(LoginSessionEntity).createQueryBuilder('s').setLock('pessimistic_write').where('s.id = :id', { id }).getOne();
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
    await tx.query(`DELETE FROM auth.refresh_tokens WHERE "sessionId" IN (SELECT id FROM auth.login_sessions WHERE "companyId" = $1)`, [companyId]);
  }
}
