/** The SQL of settings.consumer.ts, by name. */

export const UPSERT_COMPANY_SETTINGS = `INSERT INTO tickets.company_settings ("companyId", key, value) VALUES ($1, $2, $3)
       ON CONFLICT ("companyId", key) DO UPDATE SET value = EXCLUDED.value`;
