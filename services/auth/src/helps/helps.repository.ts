import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { likeEscaped } from '@wa/database';
import { DataSource, type DeepPartial, type EntityManager } from 'typeorm';
import { HelpEntity } from '../database/entities/index.js';

/** The platform's help videos (`auth.helps`), ordered by title whatever its case, then id. */
@Injectable()
export class HelpsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** A page; `search` in the title or description. */
  async page(search: string | undefined, pageNumber: number, pageSize: number): Promise<{ rows: HelpEntity[]; count: number }> {
    const qb = this.db.getRepository(HelpEntity).createQueryBuilder('h').orderBy('lower(h.title)').addOrderBy('h.id');
    if (search) qb.where('(h.title ILIKE :s OR h.description ILIKE :s)', { s: `%${likeEscaped(search)}%` });
    const [rows, count] = await qb
      .take(pageSize)
      .skip((pageNumber - 1) * pageSize)
      .getManyAndCount();
    return { rows, count };
  }

  list(limit: number): Promise<HelpEntity[]> {
    return this.db.getRepository(HelpEntity).createQueryBuilder('h').orderBy('lower(h.title)').addOrderBy('h.id').take(limit).getMany();
  }

  find(id: number): Promise<HelpEntity | null> {
    return this.db.getRepository(HelpEntity).findOneBy({ id });
  }

  create(tx: EntityManager, help: DeepPartial<HelpEntity>): Promise<HelpEntity> {
    const repo = tx.getRepository(HelpEntity);
    return repo.save(repo.create(help));
  }

  /** Writes back a help read by `find` and changed. */
  save(tx: EntityManager, help: HelpEntity): Promise<HelpEntity> {
    return tx.getRepository(HelpEntity).save(help);
  }

  /** False when there was none. */
  async delete(tx: EntityManager, id: number): Promise<boolean> {
    return (await tx.getRepository(HelpEntity).delete({ id })).affected !== 0;
  }
}
