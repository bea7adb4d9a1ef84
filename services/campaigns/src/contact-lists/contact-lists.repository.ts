import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { likeEscaped } from '@wa/database';
import { DataSource, type EntityManager } from 'typeorm';

/** A list row with its items counted. */
export interface ListRow {
  id: number;
  companyId: number;
  name: string;
  contactsCount: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface ItemRow {
  id: number;
  companyId: number;
  contactListId: number;
  name: string;
  number: string;
  email: string;
  isWhatsappValid: boolean | null;
  checkedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** One row of an import, already normalised. */
export interface NewItem {
  name: string;
  number: string;
  email: string;
}

const LIST_COLUMNS = `l.id, l."companyId", l.name, l."createdAt", l."updatedAt",
  (SELECT count(*)::int FROM campaigns.contact_list_items i WHERE i."contactListId" = l.id) AS "contactsCount"`;
const ITEM_COLUMNS = `i.id, i."companyId", i."contactListId", i.name, i.number, i.email, i."isWhatsappValid", i."checkedAt", i."createdAt", i."updatedAt"`;

/** Contact lists and their items. Every statement takes the company explicitly. */
@Injectable()
export class ContactListsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  private run(tx: EntityManager | undefined): EntityManager {
    return tx ?? this.db.manager;
  }

  // ---- lists

  async page(companyId: number, search: string | undefined, offset: number, limit: number): Promise<{ rows: ListRow[]; count: number }> {
    const term = search ? `%${likeEscaped(search.toLowerCase())}%` : null;
    const rows: ListRow[] = await this.db.query(
      `SELECT ${LIST_COLUMNS} FROM campaigns.contact_lists l
        WHERE l."companyId" = $1 AND ($2::text IS NULL OR lower(l.name) LIKE $2 ESCAPE '\\')
        ORDER BY lower(l.name), l.id OFFSET $3 LIMIT $4`,
      [companyId, term, offset, limit],
    );
    const [{ count }] = (await this.db.query(
      `SELECT count(*)::int AS count FROM campaigns.contact_lists l
        WHERE l."companyId" = $1 AND ($2::text IS NULL OR lower(l.name) LIKE $2 ESCAPE '\\')`,
      [companyId, term],
    )) as Array<{ count: number }>;
    return { rows, count };
  }

  /** The company's first `limit` lists by name (the pickers' list). */
  all(companyId: number, limit: number): Promise<ListRow[]> {
    return this.db.query(
      `SELECT ${LIST_COLUMNS} FROM campaigns.contact_lists l WHERE l."companyId" = $1 ORDER BY lower(l.name), l.id LIMIT $2`,
      [companyId, limit],
    );
  }

  async list(companyId: number, id: number, tx?: EntityManager): Promise<ListRow | null> {
    const rows: ListRow[] = await this.run(tx).query(
      `SELECT ${LIST_COLUMNS} FROM campaigns.contact_lists l WHERE l."companyId" = $1 AND l.id = $2`,
      [companyId, id],
    );
    return rows[0] ?? null;
  }

  /** Locks the list row for the transaction (an item's duplicate check and insert are one step per list). */
  async lockList(tx: EntityManager, companyId: number, id: number): Promise<boolean> {
    const rows: unknown[] = await tx.query(`SELECT id FROM campaigns.contact_lists WHERE "companyId" = $1 AND id = $2 FOR UPDATE`, [
      companyId,
      id,
    ]);
    return rows.length > 0;
  }

  async createList(tx: EntityManager, companyId: number, name: string): Promise<number> {
    const [row] = (await tx.query(`INSERT INTO campaigns.contact_lists ("companyId", name) VALUES ($1, $2) RETURNING id`, [
      companyId,
      name,
    ])) as Array<{ id: number }>;
    return row.id;
  }

  async renameList(tx: EntityManager, companyId: number, id: number, name: string): Promise<boolean> {
    const [, affected] = (await tx.query(
      `UPDATE campaigns.contact_lists SET name = $3, "updatedAt" = now() WHERE "companyId" = $1 AND id = $2`,
      [companyId, id, name],
    )) as [unknown, number];
    return affected > 0;
  }

  /** Deletes the list; its items go with it (ON DELETE CASCADE). */
  async deleteList(tx: EntityManager, companyId: number, id: number): Promise<boolean> {
    const [, affected] = (await tx.query(`DELETE FROM campaigns.contact_lists WHERE "companyId" = $1 AND id = $2`, [companyId, id])) as [
      unknown,
      number,
    ];
    return affected > 0;
  }

  // ---- items

  async items(companyId: number, listId: number, search: string | undefined, offset: number, limit: number): Promise<ItemRow[]> {
    const term = search ? `%${likeEscaped(search.toLowerCase())}%` : null;
    return this.db.query(
      `SELECT ${ITEM_COLUMNS} FROM campaigns.contact_list_items i
        WHERE i."companyId" = $1 AND i."contactListId" = $2
          AND ($3::text IS NULL OR lower(i.name) LIKE $3 ESCAPE '\\' OR i.number LIKE $3 ESCAPE '\\' OR lower(i.email) LIKE $3 ESCAPE '\\')
        ORDER BY lower(i.name), i.id OFFSET $4 LIMIT $5`,
      [companyId, listId, term, offset, limit],
    );
  }

  async item(companyId: number, id: number, tx?: EntityManager): Promise<ItemRow | null> {
    const rows: ItemRow[] = await this.run(tx).query(
      `SELECT ${ITEM_COLUMNS} FROM campaigns.contact_list_items i WHERE i."companyId" = $1 AND i.id = $2`,
      [companyId, id],
    );
    return rows[0] ?? null;
  }

  /** An item of the list holding one of these numbers (the variants of one), other than `exceptId`. */
  async numberTaken(tx: EntityManager, listId: number, numbers: string[], exceptId = 0): Promise<boolean> {
    const rows: unknown[] = await tx.query(
      `SELECT 1 FROM campaigns.contact_list_items WHERE "contactListId" = $1 AND number = ANY($2::text[]) AND id <> $3 LIMIT 1`,
      [listId, numbers, exceptId],
    );
    return rows.length > 0;
  }

  async insertItem(tx: EntityManager, companyId: number, listId: number, item: NewItem): Promise<ItemRow> {
    const [row] = (await tx.query(
      `INSERT INTO campaigns.contact_list_items AS i ("companyId", "contactListId", name, number, email)
       VALUES ($1, $2, $3, $4, $5) RETURNING ${ITEM_COLUMNS}`,
      [companyId, listId, item.name, item.number, item.email],
    )) as ItemRow[];
    return row;
  }

  /** Changes an item; a changed number is checked on WhatsApp again. */
  async updateItem(tx: EntityManager, companyId: number, id: number, item: NewItem): Promise<ItemRow | null> {
    const [rows] = (await tx.query(
      `UPDATE campaigns.contact_list_items AS i SET name = $3, email = $5, "updatedAt" = now(),
              "isWhatsappValid" = CASE WHEN i.number = $4 THEN i."isWhatsappValid" END,
              "checkedAt" = CASE WHEN i.number = $4 THEN i."checkedAt" END,
              number = $4
        WHERE i."companyId" = $1 AND i.id = $2 RETURNING ${ITEM_COLUMNS}`,
      [companyId, id, item.name, item.number, item.email],
    )) as [ItemRow[], number];
    return rows[0] ?? null;
  }

  async deleteItem(tx: EntityManager, companyId: number, id: number): Promise<boolean> {
    const [, affected] = (await tx.query(`DELETE FROM campaigns.contact_list_items WHERE "companyId" = $1 AND id = $2`, [
      companyId,
      id,
    ])) as [unknown, number];
    return affected > 0;
  }

  /**
   * Stores a batch of an import in one statement; a number already in the list (or twice in the batch) is
   * skipped. Answers how many were stored. Nothing when the list is gone (deleted meanwhile).
   */
  async insertMany(tx: EntityManager, companyId: number, listId: number, items: NewItem[]): Promise<number> {
    const rows: unknown[] = await tx.query(
      `INSERT INTO campaigns.contact_list_items ("companyId", "contactListId", name, number, email)
       SELECT $1, l.id, r.name, r.number, r.email
         FROM campaigns.contact_lists l, unnest($3::text[], $4::text[], $5::text[]) AS r(name, number, email)
        WHERE l.id = $2 AND l."companyId" = $1
       ON CONFLICT ("contactListId", number) DO NOTHING RETURNING id`,
      [companyId, listId, items.map((i) => i.name), items.map((i) => i.number), items.map((i) => i.email)],
    );
    return rows.length;
  }

  // ---- the background check on WhatsApp

  /** Companies with items not yet checked: a skip scan of the partial index, one probe per company (not one per item). */
  async companiesToCheck(limit: number): Promise<number[]> {
    const rows: Array<{ companyId: number }> = await this.db.query(
      `WITH RECURSIVE c AS (
         (SELECT "companyId" FROM campaigns.contact_list_items WHERE "isWhatsappValid" IS NULL ORDER BY "companyId" LIMIT 1)
         UNION ALL
         SELECT (SELECT i."companyId" FROM campaigns.contact_list_items i
                  WHERE i."isWhatsappValid" IS NULL AND i."companyId" > c."companyId" ORDER BY i."companyId" LIMIT 1)
           FROM c WHERE c."companyId" IS NOT NULL
       )
       SELECT "companyId" FROM c WHERE "companyId" IS NOT NULL LIMIT $1`,
      [limit],
    );
    return rows.map((r) => r.companyId);
  }

  /** The company's next items to check, oldest first. */
  uncheckedBatch(companyId: number, limit: number): Promise<Array<{ id: number; number: string }>> {
    return this.db.query(
      `SELECT id, number FROM campaigns.contact_list_items WHERE "companyId" = $1 AND "isWhatsappValid" IS NULL ORDER BY id LIMIT $2`,
      [companyId, limit],
    );
  }

  /** Sets what WhatsApp answered; an item whose number changed meanwhile keeps waiting. Answers the items changed. */
  async setChecked(
    tx: EntityManager,
    companyId: number,
    results: Array<{ id: number; number: string; valid: boolean }>,
  ): Promise<ItemRow[]> {
    const [rows] = (await tx.query(
      `UPDATE campaigns.contact_list_items AS i SET "isWhatsappValid" = r.valid, "checkedAt" = now(), "updatedAt" = now()
         FROM unnest($2::int[], $3::text[], $4::boolean[]) AS r(id, number, valid)
        WHERE i.id = r.id AND i.number = r.number AND i."companyId" = $1 AND i."isWhatsappValid" IS NULL
        RETURNING ${ITEM_COLUMNS}`,
      [companyId, results.map((r) => r.id), results.map((r) => r.number), results.map((r) => r.valid)],
    )) as [ItemRow[], number];
    return rows;
  }
}
