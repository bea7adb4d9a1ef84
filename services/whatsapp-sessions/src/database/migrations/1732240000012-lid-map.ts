import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The company's LID map: which phone number WhatsApp's linked identity (LID) stands for, learned from WhatsApp
 * (`lid-mapping.update`, a message's `remoteJidAlt`/`participantAlt`, a contact's phone number, history sync). A
 * bare-LID message of a mapped LID is published under the phone number; a new mapping is announced (`wa.lid.*`)
 * so tickets makes the LID's contact and the number's one.
 */
export class LidMap1732240000012 implements MigrationInterface {
  name = 'LidMap1732240000012';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS whatsapp.lid_map (
        "companyId" int NOT NULL,
        lid varchar(40) NOT NULL,
        pn varchar(20) NOT NULL,
        "learnedAt" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("companyId", lid)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS whatsapp.lid_map`);
  }
}
