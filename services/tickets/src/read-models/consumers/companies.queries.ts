/** The SQL of companies.consumer.ts, by name. */

export const INSERT_DELETED_COMPANIES = `INSERT INTO tickets.deleted_companies (id) VALUES ($1) ON CONFLICT (id) DO NOTHING`;
