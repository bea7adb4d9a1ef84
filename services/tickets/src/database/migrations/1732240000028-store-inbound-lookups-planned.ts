import type { MigrationInterface, QueryRunner } from 'typeorm';

const SIGNATURE = `tickets.store_inbound(int[], text[], text[], bool[], int[], text[], int[], int[], bool[], text[], text[], bool[], text[], timestamptz[], bigint[])`;

/** Statements of the function as 1732240000002 wrote them, and as they are now. */
const CHANGES: Array<{ before: string; after: string }> = [
  {
    before: `INSERT INTO tickets.contacts ("companyId", number, name, "isGroup")
        SELECT u.company, u.number, CASE WHEN u.name = '' THEN u.number ELSE u.name END, u.is_group
          FROM unnest(c_company, c_number, c_name, c_group) AS u(company, number, name, is_group)
        ON CONFLICT ("companyId", number) DO UPDATE
           SET name = EXCLUDED.name, "updatedAt" = now()
         WHERE EXCLUDED.name <> EXCLUDED.number AND tickets.contacts.name IS DISTINCT FROM EXCLUDED.name;

        SELECT array_agg(ct.id ORDER BY u.ord) INTO msg_contact
          FROM unnest(m_company, m_number) WITH ORDINALITY AS u(company, number, ord)
          LEFT JOIN tickets.contacts ct ON ct."companyId" = u.company AND ct.number = u.number;`,
    // every contact of the batch comes back from the upsert; one not renamed is written as it is (a HOT update)
    after: `WITH up AS (
          INSERT INTO tickets.contacts AS ct ("companyId", number, name, "isGroup")
          SELECT u.company, u.number, CASE WHEN u.name = '' THEN u.number ELSE u.name END, u.is_group
            FROM unnest(c_company, c_number, c_name, c_group) AS u(company, number, name, is_group)
          ON CONFLICT ("companyId", number) DO UPDATE
             SET name = CASE WHEN EXCLUDED.name <> EXCLUDED.number AND ct.name IS DISTINCT FROM EXCLUDED.name THEN EXCLUDED.name ELSE ct.name END,
                 "updatedAt" = CASE WHEN EXCLUDED.name <> EXCLUDED.number AND ct.name IS DISTINCT FROM EXCLUDED.name THEN now() ELSE ct."updatedAt" END
          RETURNING ct.id, ct."companyId", ct.number)
        SELECT array_agg(up.id ORDER BY u.ord) INTO msg_contact
          FROM unnest(m_company, m_number) WITH ORDINALITY AS u(company, number, ord)
          LEFT JOIN up ON up."companyId" = u.company AND up.number = u.number;`,
  },
  {
    before: `SELECT array_agg(t.id ORDER BY u.ord) INTO msg_ticket
          FROM unnest(msg_contact, m_whatsapp) WITH ORDINALITY AS u(contact, whatsapp, ord)
          LEFT JOIN tickets.tickets t ON t."contactId" = u.contact AND t."whatsappId" = u.whatsapp AND t.status <> 'closed';`,
    after: `EXECUTE 'SELECT array_agg(t.id ORDER BY u.ord)
                   FROM unnest($1::int[], $2::int[]) WITH ORDINALITY AS u(contact, whatsapp, ord)
                   LEFT JOIN tickets.tickets t ON t."contactId" = u.contact AND t."whatsappId" = u.whatsapp AND t.status <> ''closed'''
          INTO msg_ticket USING msg_contact, m_whatsapp;`,
  },
];

/**
 * `store_inbound` finds each message's contact and open ticket without a plan that grows with the tables.
 * Its statements keep the plans made at a connection's first call (1732240000026), and a fresh database's first
 * call finds these tables all but empty; PostgreSQL makes a kept plan again after an ANALYZE, which may never
 * come (autovacuum is off on some machines). Planned so, the contact was looked up through `contacts_company_sort`
 * (the company's contacts, read one by one until the number turned up) and the open ticket through a bitmap of
 * every open ticket, joined by hash: both cost in proportion to the table, for every batch. Without statistics
 * no plan picks the right index for the contact (planned for each call, the lookup went through the trigram
 * index of numbers, whose entries for the digits every number shares list nearly every contact, or through
 * another index that starts with the company), so the contacts' upsert now answers every contact of the batch
 * itself, through the unique index it checks conflicts on. The ticket's lookup is planned for each call, without
 * bitmaps, where its unique index wins. The function's text is changed in place, each statement found as
 * 1732240000002 wrote it (failing otherwise).
 */
export class StoreInboundLookupsPlanned1732240000028 implements MigrationInterface {
  name = 'StoreInboundLookupsPlanned1732240000028';

  async up(q: QueryRunner): Promise<void> {
    await this.rewrite(q, (def) => CHANGES.reduce((d, c) => swap(d, c.before, c.after), def));
    await q.query(`ALTER FUNCTION ${SIGNATURE} SET enable_bitmapscan = off`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER FUNCTION ${SIGNATURE} RESET enable_bitmapscan`);
    await this.rewrite(q, (def) => CHANGES.reduce((d, c) => swap(d, c.after, c.before), def));
  }

  /** CREATE OR REPLACE with the function's definition as PostgreSQL gives it (its SET clauses included). */
  private async rewrite(q: QueryRunner, change: (def: string) => string): Promise<void> {
    const [{ def }] = (await q.query(`SELECT pg_get_functiondef($1::regprocedure) AS def`, [SIGNATURE])) as Array<{ def: string }>;
    await q.query(change(def));
  }
}

function swap(def: string, from: string, to: string): string {
  const at = def.indexOf(from);
  if (at < 0) throw new Error(`store_inbound: statement not found as expected:\n${from}`);
  return def.slice(0, at) + to + def.slice(at + from.length);
}
