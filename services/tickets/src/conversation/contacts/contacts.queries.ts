import { likeEscaped } from '@wa/database';
import { phoneNumberVariants } from '@wa/domain';
import type { DataSource, EntityManager } from 'typeorm';
import { ContactEntity } from '../../database/entities/index.js';

/** What a contacts page asks beyond the company (alias c; ` AND …`, or empty) and its parameters, numbered from $1 (the company). */
export interface ContactsFilter {
  where: string;
  params: unknown[];
  /** more than the company: an exact count, and a narrow filter served by its own index */
  filtered: boolean;
}

/** The company's contacts whose name or e-mail (or number, with 3 digits or more) has `term`, created within [from, to). */
export function contactsFilter(companyId: number, term: string | undefined, from: Date | undefined, to: Date | undefined): ContactsFilter {
  const params: unknown[] = [companyId];
  const p = (v: unknown) => `$${params.push(v)}`;
  const where: string[] = [];
  if (term) {
    const like = p(`%${likeEscaped(term)}%`);
    const digits = term.replace(/\D/g, '');
    const byNumber = digits.length >= 3 ? ` OR c.number LIKE ${p(`%${digits}%`)}` : '';
    where.push(`(lower(c.name) LIKE ${like} ESCAPE '\\' OR lower(c.email) LIKE ${like} ESCAPE '\\'${byNumber})`);
  }
  if (from) where.push(`c."createdAt" >= ${p(from)}`);
  if (to) where.push(`c."createdAt" < ${p(to)}`);
  return { where: where.map((w) => ` AND ${w}`).join(''), params, filtered: where.length > 0 };
}

export async function countContacts(db: DataSource, filter: Pick<ContactsFilter, 'where' | 'params'>): Promise<number> {
  const [row] = await db.query(`SELECT count(*)::int AS n FROM tickets.contacts c WHERE c."companyId" = $1${filter.where}`, filter.params);
  return row.n;
}

/**
 * A page of contacts by name. `narrow`: the filter matches few rows, read through its own index and sorted;
 * otherwise the page's ids are found in name order first, then their rows.
 */
export function contactsPage(
  db: DataSource,
  filter: ContactsFilter,
  narrow: boolean,
  offset: number,
  limit: number,
): Promise<ContactEntity[]> {
  const params = [...filter.params];
  const o = `$${params.push(offset)}`;
  const l = `$${params.push(limit)}`;
  const sql = narrow
    ? `SELECT c.* FROM (SELECT * FROM tickets.contacts c WHERE c."companyId" = $1${filter.where} OFFSET 0) c ORDER BY c."sortName", c.id OFFSET ${o} LIMIT ${l}`
    : `SELECT c.* FROM tickets.contacts c
         JOIN (SELECT c.id, c."sortName" FROM tickets.contacts c WHERE c."companyId" = $1${filter.where} ORDER BY c."sortName", c.id OFFSET ${o} LIMIT ${l}) p ON p.id = c.id
        ORDER BY p."sortName", p.id`;
  return db.query(sql, params);
}

/** The contact with this canonical number, or one stored under WhatsApp's old form of it. */
export function contactByNumber(manager: EntityManager, companyId: number, number: string): Promise<ContactEntity | null> {
  return manager
    .getRepository(ContactEntity)
    .createQueryBuilder('c')
    .where('c."companyId" = :companyId AND c.number IN (:...numbers)', { companyId, numbers: phoneNumberVariants(number) })
    .orderBy('c.id', 'ASC')
    .getOne();
}

/** The company's first `limit` contacts by name (the pickers' list). */
export function contactsByName(db: DataSource, companyId: number, limit: number): Promise<ContactEntity[]> {
  return db
    .getRepository(ContactEntity)
    .createQueryBuilder('c')
    .where('c."companyId" = :companyId', { companyId })
    .orderBy('lower(c.name)', 'ASC')
    .addOrderBy('c.id', 'ASC')
    .limit(limit)
    .getMany();
}

/** The company's contacts after id `after`, by id, `limit` at most (an export's batch). */
export function contactsAfter(
  db: DataSource,
  companyId: number,
  after: number,
  limit: number,
): Promise<Array<Pick<ContactEntity, 'id' | 'name' | 'number' | 'email'>>> {
  return db
    .getRepository(ContactEntity)
    .createQueryBuilder('c')
    .select(['c.id', 'c.name', 'c.number', 'c.email'])
    .where('c."companyId" = :companyId AND c.id > :after', { companyId, after })
    .orderBy('c.id', 'ASC')
    .limit(limit)
    .getMany();
}
