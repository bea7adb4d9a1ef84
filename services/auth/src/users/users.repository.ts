import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { TenantScopedRepository, likeEscaped } from '@wa/database';
import { currentContext } from '@wa/server-kit';
import { Brackets, DataSource, type EntityManager } from 'typeorm';
import { UserEntity } from '../database/entities/user.entity.js';

export const USERS_PAGE_SIZE = 20;

/**
 * Users of the caller's company; every query carries its companyId, but those that say otherwise: an email is
 * unique across the platform (sign-in, reset, sign-up), and a company's own count names its company.
 */
@Injectable()
export class UsersRepository extends TenantScopedRepository<UserEntity> {
  constructor(@InjectDataSource() private readonly db: DataSource) {
    super(db.manager, UserEntity, () => currentContext()?.companyId);
  }

  async page(searchParam: string | undefined, pageNumber: number): Promise<{ users: UserEntity[]; count: number }> {
    const qb = this.repo()
      .createQueryBuilder('u')
      .where('u.companyId = :companyId', { companyId: this.companyId })
      .orderBy('u.name', 'ASC')
      .addOrderBy('u.id', 'ASC')
      .take(USERS_PAGE_SIZE)
      .skip((pageNumber - 1) * USERS_PAGE_SIZE);
    const term = searchParam?.trim().toLowerCase();
    if (term) {
      qb.andWhere(new Brackets((w) => w.where('lower(u.name) LIKE :term').orWhere('lower(u.email) LIKE :term')), {
        term: `%${likeEscaped(term)}%`,
      });
    }
    const [users, count] = await qb.getManyAndCount();
    return { users, count };
  }

  names(): Promise<Array<Pick<UserEntity, 'id' | 'name'>>> {
    return this.repo().find({ where: this.scoped(), select: { id: true, name: true }, order: { name: 'ASC' } });
  }

  emailTaken(email: string, exceptId?: number): Promise<boolean> {
    const qb = this.repo().createQueryBuilder('u').where('lower(u.email) = :email', { email: email.toLowerCase() });
    if (exceptId) qb.andWhere('u.id <> :id', { id: exceptId });
    return qb.getExists();
  }

  /** The user of an email (lower case), of any company; with `withPasswordHash`, its stored hash too. */
  byEmail(email: string, withPasswordHash = false): Promise<UserEntity | null> {
    const qb = this.repo().createQueryBuilder('u');
    if (withPasswordHash) qb.addSelect('u.passwordHash');
    return qb.where('lower(u.email) = :email', { email }).getOne();
  }

  /** A user of any company, by id (a sign-in or a refresh: no company in context yet). */
  byId(id: number, manager: EntityManager = this.db.manager): Promise<UserEntity | null> {
    return manager.getRepository(UserEntity).findOneBy({ id });
  }

  /** Changes a user of any company, by id (see byId). */
  async updateById(
    manager: EntityManager,
    id: number,
    patch: Partial<Pick<UserEntity, 'online' | 'passwordHash' | 'mustChangePassword'>>,
  ): Promise<void> {
    await manager.getRepository(UserEntity).update({ id }, patch);
  }

  /** Every user of a company, any company: their ids and whether they are super users. */
  membersOf(manager: EntityManager, companyId: number): Promise<Array<Pick<UserEntity, 'id' | 'super'>>> {
    return manager.getRepository(UserEntity).find({ where: { companyId }, select: { id: true, super: true } });
  }

  /** Users are created in a company one at a time until the transaction ends (its plan's count is checked). */
  async lockCreation(tx: EntityManager, companyId: number): Promise<void> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('auth.users'), $1)`, [companyId]);
  }

  /** The stored hash (never selected otherwise). */
  async passwordHashOf(id: number): Promise<string> {
    const row = await this.repo()
      .createQueryBuilder('u')
      .addSelect('u.passwordHash')
      .where('u.id = :id AND u.companyId = :companyId', { id, companyId: this.companyId })
      .getOne();
    return row?.passwordHash ?? '';
  }

  countInCompany(companyId: number, manager?: EntityManager): Promise<number> {
    return this.repo(manager).countBy({ companyId });
  }
}
