import type { DataSource, SelectQueryBuilder } from 'typeorm';
import { ContactEntity, ScheduleEntity } from '../database/entities/index.js';

/** The company's schedules (alias s) with their contact's name and number: every one for an admin (`userId` null), else the user's own. */
export function visibleSchedules(db: DataSource, companyId: number, userId: number | null): SelectQueryBuilder<ScheduleEntity> {
  const qb = db
    .getRepository(ScheduleEntity)
    .createQueryBuilder('s')
    .leftJoin(ContactEntity, 'c', 'c.id = s."contactId"')
    .addSelect(['c.name AS "contactName"', 'c.number AS "contactNumber"'])
    .where('s."companyId" = :companyId', { companyId });
  if (userId !== null) qb.andWhere('s."userId" = :userId', { userId });
  return qb;
}
