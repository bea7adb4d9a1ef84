import { Brackets, type DataSource, type SelectQueryBuilder } from 'typeorm';
import { QuickMessageEntity } from '../../database/entities/index.js';

/** The company's quick messages (alias q) a user may use: every one for an admin (`userId` null), else the shared ones and their own. */
export function usableQuickMessages(db: DataSource, companyId: number, userId: number | null): SelectQueryBuilder<QuickMessageEntity> {
  const qb = db.getRepository(QuickMessageEntity).createQueryBuilder('q').where('q."companyId" = :companyId', { companyId });
  if (userId !== null) qb.andWhere(new Brackets((w) => w.where('q.geral = true').orWhere('q."userId" = :userId', { userId })));
  return qb;
}
