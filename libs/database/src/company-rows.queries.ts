/** The statements of deleteCompanyRows (company-rows.ts). */

/** The base tables of schema `$1` that have a "companyId" column, by name. */
export const COMPANY_TABLES = `SELECT c.table_name AS name FROM information_schema.columns c JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = $1 AND c.column_name = 'companyId' AND t.table_type = 'BASE TABLE' ORDER BY c.table_name`;

/** Deletes company `$1`'s rows of one table (`schema` checked by the caller, quotes dropped from `table`). */
export const deleteCompanyRowsSql = (schema: string, table: string): string =>
  `DELETE FROM "${schema}"."${table.replace(/"/g, '')}" WHERE "companyId" = $1`;
