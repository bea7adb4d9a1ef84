/** The SQL of contacts-transfer.service.ts, by name. */

export const UPSERT_CONTACTS = `INSERT INTO tickets.contacts ("companyId", name, number, email)
           SELECT $1, * FROM unnest($2::varchar[], $3::varchar[], $4::varchar[])
           ON CONFLICT ("companyId", number) DO UPDATE
             SET name = CASE WHEN $5::boolean AND contacts.name <> contacts.number THEN contacts.name ELSE EXCLUDED.name END,
                 email = CASE WHEN EXCLUDED.email <> '' THEN EXCLUDED.email ELSE contacts.email END,
                 "updatedAt" = now()
           RETURNING *, (xmax = 0) AS inserted`;
