import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { likeEscaped } from '@wa/database';
import { DataSource, type DeepPartial, type EntityManager } from 'typeorm';
import { AnnouncementEntity } from '../database/entities/index.js';

/** The platform's announcements (`auth.announcements`), newest first. */
@Injectable()
export class AnnouncementsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** A page of them (only the active ones unless `all`); `search` in the title or text. */
  async page(
    all: boolean,
    search: string | undefined,
    pageNumber: number,
    pageSize: number,
  ): Promise<{ rows: AnnouncementEntity[]; count: number }> {
    const qb = this.db.getRepository(AnnouncementEntity).createQueryBuilder('a').orderBy('a.createdAt', 'DESC').addOrderBy('a.id', 'DESC');
    if (!all) qb.andWhere('a.status');
    if (search) qb.andWhere('(a.title ILIKE :s OR a.text ILIKE :s)', { s: `%${likeEscaped(search)}%` });
    const [rows, count] = await qb
      .take(pageSize)
      .skip((pageNumber - 1) * pageSize)
      .getManyAndCount();
    return { rows, count };
  }

  find(id: number): Promise<AnnouncementEntity | null> {
    return this.db.getRepository(AnnouncementEntity).findOneBy({ id });
  }

  /** Locked to the end of the transaction. */
  lock(tx: EntityManager, id: number): Promise<AnnouncementEntity | null> {
    return tx.getRepository(AnnouncementEntity).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  create(tx: EntityManager, data: DeepPartial<AnnouncementEntity>): Promise<AnnouncementEntity> {
    const repo = tx.getRepository(AnnouncementEntity);
    return repo.save(repo.create(data));
  }

  /** Writes back one read (by `lock`) and changed. */
  save(tx: EntityManager, a: AnnouncementEntity): Promise<AnnouncementEntity> {
    return tx.getRepository(AnnouncementEntity).save(a);
  }

  async delete(tx: EntityManager, id: number): Promise<void> {
    await tx.getRepository(AnnouncementEntity).delete({ id });
  }
}
