import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When a contact's profile picture was last asked of WhatsApp (issue 42 §8): the picture (`profilePicUrl`, '' for
 * none or hidden) is asked again only once this is older than a day. Null: never asked.
 */
export class ContactProfilePictures1732240000038 implements MigrationInterface {
  name = 'ContactProfilePictures1732240000038';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tickets.contacts ADD COLUMN IF NOT EXISTS "profilePicCheckedAt" timestamptz NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tickets.contacts DROP COLUMN IF EXISTS "profilePicCheckedAt"`);
  }
}
