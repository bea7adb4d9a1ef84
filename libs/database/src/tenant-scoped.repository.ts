import type {
  DeepPartial,
  EntityManager,
  EntityTarget,
  FindManyOptions,
  FindOneOptions,
  FindOptionsWhere,
  ObjectLiteral,
  Repository,
} from 'typeorm';

/** Where the current company comes from (the request context, or a consumer's payload). */
export type CompanyIdSource = () => number | undefined;

export class MissingTenantError extends Error {
  constructor() {
    super('no company in context: tenant-scoped query refused');
    this.name = 'MissingTenantError';
  }
}

/**
 * Base of every repository over tenant rows: adds the caller's companyId to every query and insert,
 * so no method takes it and no query forgets it.
 */
export abstract class TenantScopedRepository<E extends ObjectLiteral & { companyId: number }> {
  protected constructor(
    protected readonly manager: EntityManager,
    protected readonly target: EntityTarget<E>,
    private readonly companyIdSource: CompanyIdSource,
  ) {}

  protected get companyId(): number {
    const id = this.companyIdSource();
    if (id === undefined || id === null) throw new MissingTenantError();
    return id;
  }

  protected repo(manager: EntityManager = this.manager): Repository<E> {
    return manager.getRepository(this.target);
  }

  protected scoped(where: FindOptionsWhere<E> = {}): FindOptionsWhere<E> {
    return { ...where, companyId: this.companyId } as FindOptionsWhere<E>;
  }

  findOne(where: FindOptionsWhere<E>, opts: Omit<FindOneOptions<E>, 'where'> = {}, manager?: EntityManager): Promise<E | null> {
    return this.repo(manager).findOne({ ...opts, where: this.scoped(where) });
  }

  find(where: FindOptionsWhere<E> = {}, opts: Omit<FindManyOptions<E>, 'where'> = {}, manager?: EntityManager): Promise<E[]> {
    return this.repo(manager).find({ ...opts, where: this.scoped(where) });
  }

  create(data: DeepPartial<E>, manager?: EntityManager): Promise<E> {
    const entity = this.repo(manager).create({ ...data, companyId: this.companyId } as DeepPartial<E>);
    return this.repo(manager).save(entity);
  }

  async update(where: FindOptionsWhere<E>, patch: DeepPartial<E>, manager?: EntityManager): Promise<number> {
    const { companyId: _ignored, ...rest } = patch as DeepPartial<E> & { companyId?: number };
    const result = await this.repo(manager).update(this.scoped(where), rest as never);
    return result.affected ?? 0;
  }

  async delete(where: FindOptionsWhere<E>, manager?: EntityManager): Promise<number> {
    const result = await this.repo(manager).delete(this.scoped(where));
    return result.affected ?? 0;
  }
}
