/** The SQL of stored-secrets.ts, by name. */

export const SELECT_WEBHOOK_SECRETS = `SELECT "companyId", secret FROM tickets.webhook_settings`;

export const UPDATE_WEBHOOK_SETTINGS_SECRET = `UPDATE tickets.webhook_settings SET secret = $2 WHERE "companyId" = $1 AND secret = $3`;

export const SELECT_PROMPT_VOICE_KEYS = `SELECT id, "voiceKey" FROM tickets.prompts WHERE "voiceKey" IS NOT NULL AND "voiceKey" <> ''`;

export const UPDATE_PROMPTS_VOICE_KEY = `UPDATE tickets.prompts SET "voiceKey" = $2 WHERE id = $1 AND "voiceKey" = $3`;
