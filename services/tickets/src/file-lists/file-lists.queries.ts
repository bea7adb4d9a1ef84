/** The SQL of file-lists.ts, by name. */

export const INSERT_FILE_LISTS = `INSERT INTO tickets.file_lists ("companyId", name, message, "userId") VALUES ($1, $2, $3, $4) RETURNING *`;

export const SELECT_OPTIONS_OF_LIST = `SELECT * FROM tickets.file_list_options WHERE "fileListId" = $1 AND "companyId" = $2`;

export const DELETE_OPTIONS = `DELETE FROM tickets.file_list_options WHERE id = ANY($1::int[]) AND "companyId" = $2`;

export const UPDATE_FILE_LIST = `UPDATE tickets.file_lists SET name = COALESCE($2, name), message = COALESCE($3, message), "updatedAt" = now() WHERE id = $1 AND "companyId" = $4 RETURNING *`;

export const SELECT_OPTION_FILES_OF_LIST = `SELECT path FROM tickets.file_list_options WHERE "fileListId" = $1 AND "companyId" = $2 AND path IS NOT NULL`;

export const DELETE_FILE_LIST = `DELETE FROM tickets.file_lists WHERE id = $1 AND "companyId" = $2`;

export const LOCK_OPTIONS_OF_LIST = `SELECT * FROM tickets.file_list_options WHERE "fileListId" = $1 AND "companyId" = $2 FOR UPDATE`;

export const TOUCH_FILE_LIST = `UPDATE tickets.file_lists SET "updatedAt" = now() WHERE id = $1 AND "companyId" = $2 RETURNING *`;

export const INSERT_FILE_LIST_OPTIONS = `INSERT INTO tickets.file_list_options ("fileListId", "companyId", name, position) SELECT $1, $2, n, p FROM unnest($3::text[], $4::int[]) AS o(n, p)`;

export const SELECT_OPTIONS_OF_LISTS = `SELECT * FROM tickets.file_list_options WHERE "fileListId" = ANY($1::int[]) AND "companyId" = $2 ORDER BY "fileListId", position, id`;

/** A page of the company's lists ($1) by name from $2, with the total; `search`: names LIKE $3. */
export function fileListsPageSql(search: boolean, limit: number): string {
  return `SELECT f.*, count(*) OVER () AS total FROM tickets.file_lists f WHERE f."companyId" = $1${search ? ' AND lower(f.name) LIKE $3' : ''}
        ORDER BY lower(f.name), f.id OFFSET $2 LIMIT ${limit}`;
}

/** The list $1 of the company $2 (locked for a change when `lock`). */
export function fileListSql(lock: boolean): string {
  return `SELECT * FROM tickets.file_lists WHERE id = $1 AND "companyId" = $2${lock ? ' FOR UPDATE' : ''}`;
}

/** The list's options renamed and moved (ids $1, names $2, positions $3) of the company $4. */
export const RENAME_OPTIONS = `UPDATE tickets.file_list_options o SET name = u.name, position = u.position FROM unnest($1::int[], $2::text[], $3::int[]) AS u(id, name, position) WHERE o.id = u.id AND o."companyId" = $4`;

/** The options' files (ids $1, storage keys $2, types $3) of the company $4. */
export const SET_OPTION_FILES = `UPDATE tickets.file_list_options o SET path = u.path, "mediaType" = u.type FROM unnest($1::int[], $2::text[], $3::text[]) AS u(id, path, type) WHERE o.id = u.id AND o."companyId" = $4`;
