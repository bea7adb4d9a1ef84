import { SecretBox } from '@wa/server-kit';
import {
  SELECT_PROMPT_VOICE_KEYS,
  SELECT_WEBHOOK_SECRETS,
  UPDATE_PROMPTS_VOICE_KEY,
  UPDATE_WEBHOOK_SETTINGS_SECRET,
} from './stored-secrets.queries.js';

interface Queryable {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/** What tickets' secrets are sealed under: TICKETS_SECRETS_KEY (required in production), else derived from JWT_SECRET. */
export function ticketsSecretMaterial(env: { TICKETS_SECRETS_KEY?: string; JWT_SECRET: string }): string {
  return env.TICKETS_SECRETS_KEY || `dev-only:${env.JWT_SECRET}`;
}

/** The box a company's webhook signing secret is sealed with (the dispatcher opens it to sign each delivery). */
export function webhookSecretBox(material: string): SecretBox {
  return new SecretBox(material, 'webhook-secret');
}

/** The box an AI prompt's voice-service key is sealed with (answered masked, never whole). */
export function voiceKeyBox(material: string): SecretBox {
  return new SecretBox(material, 'prompt-voice-key');
}

/**
 * Seals the secrets still held in clear (rows written before they were sealed): webhook signing secrets and
 * prompts' voice keys. Run by migration 1732240000030 when it is given TICKETS_SECRETS_KEY, and by the service
 * at every start (a row the migration could not seal is sealed then). Answers how many were sealed.
 */
export async function sealStoredSecrets(db: Queryable, material: string): Promise<{ webhookSecrets: number; voiceKeys: number }> {
  const hooks = webhookSecretBox(material);
  const voices = voiceKeyBox(material);
  const secrets = ((await db.query(SELECT_WEBHOOK_SECRETS)) as Array<{ companyId: number; secret: string }>).filter(
    (r) => !SecretBox.isSealed(r.secret),
  );
  for (const r of secrets) {
    // only if it is still the value read (a new one saved meanwhile is sealed already)
    await db.query(UPDATE_WEBHOOK_SETTINGS_SECRET, [r.companyId, hooks.seal(r.secret), r.secret]);
  }
  const keys = ((await db.query(SELECT_PROMPT_VOICE_KEYS)) as Array<{ id: number; voiceKey: string }>).filter(
    (r) => !SecretBox.isSealed(r.voiceKey),
  );
  for (const r of keys) {
    await db.query(UPDATE_PROMPTS_VOICE_KEY, [r.id, voices.seal(r.voiceKey), r.voiceKey]);
  }
  return { webhookSecrets: secrets.length, voiceKeys: keys.length };
}
