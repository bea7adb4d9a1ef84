import type { MigrationInterface, QueryRunner } from 'typeorm';
import { sealStoredSecrets } from '../stored-secrets.js';

/**
 * Issue 38 (items 10, 11). Messages the public API sends are marked (`viaApi`): GET /api/messages/{id}
 * answers those alone, not an agent's or the bot's replies (messages sent before this are unmarked: 404).
 * Webhook signing secrets and prompts' voice keys are sealed at rest (AES-256-GCM, as AI keys are): the rows
 * held in clear are sealed here when the migration is given TICKETS_SECRETS_KEY, the key the service seals
 * with. Without it (a dev setup, where the service derives its key from JWT_SECRET) they are left for the
 * service, which seals every row still in clear when it starts: a migration never seals under a key the
 * service may not have.
 */
export class ApiMessagesAndSealedSecrets1732240000030 implements MigrationInterface {
  name = 'ApiMessagesAndSealedSecrets1732240000030';

  async up(q: QueryRunner): Promise<void> {
    // a constant default: PostgreSQL adds the column without rewriting the table
    await q.query(`ALTER TABLE tickets.messages ADD COLUMN IF NOT EXISTS "viaApi" boolean NOT NULL DEFAULT false`);
    const key = process.env.TICKETS_SECRETS_KEY;
    if (key) await sealStoredSecrets(q, key);
  }

  async down(q: QueryRunner): Promise<void> {
    // sealed secrets stay sealed (the service opens them; a value in clear is what this undid)
    await q.query(`ALTER TABLE tickets.messages DROP COLUMN IF EXISTS "viaApi"`);
  }
}
