/** Contacts' numbers and when their pictures were asked, each under its company (`$1` ids, `$2` companies). */
export const CONTACT_PICTURES = `
  SELECT c.id, c."companyId", c.number, c."profilePicUrl", c."profilePicCheckedAt"
    FROM tickets.contacts c
    JOIN unnest($1::int[], $2::int[]) AS k(id, company) ON c.id = k.id AND c."companyId" = k.company`;

/** The same picture again (or none again) for these contacts: only the time it was asked (`$1` ids, `$2` companies). */
export const TOUCH_CONTACT_PICTURES = `
  UPDATE tickets.contacts c SET "profilePicCheckedAt" = now()
    FROM unnest($1::int[], $2::int[]) AS k(id, company)
   WHERE c.id = k.id AND c."companyId" = k.company`;

/** New pictures (`$1` ids, `$2` companies, `$3` urls): kept with the time asked; answers the contacts as they are now. */
export const KEEP_CONTACT_PICTURES = `
  UPDATE tickets.contacts c SET "profilePicUrl" = k.url, "profilePicCheckedAt" = now(), "updatedAt" = now()
    FROM unnest($1::int[], $2::int[], $3::text[]) AS k(id, company, url)
   WHERE c.id = k.id AND c."companyId" = k.company
  RETURNING c.*`;

/**
 * Contacts with a conversation touched in the last `$2` days whose picture was not asked in the last `$3` ms, after
 * contact `$1` by id, `$4` at most, of company `$5` (null: of all): each with the connection of its latest such conversation (the one to ask through).
 */
export const STALE_PICTURES = `
  SELECT DISTINCT ON (c.id) c.id AS "contactId", c."companyId", t."whatsappId" AS "connectionId"
    FROM tickets.tickets t
    JOIN tickets.contacts c ON c.id = t."contactId"
   WHERE t."updatedAt" > now() - make_interval(days => $2::int)
     AND t."whatsappId" IS NOT NULL
     AND c.id > $1
     AND ($5::int IS NULL OR t."companyId" = $5::int)
     AND c.number <> ''
     AND (c."profilePicCheckedAt" IS NULL OR c."profilePicCheckedAt" < now() - make_interval(secs => $3::bigint / 1000.0))
   ORDER BY c.id, t."updatedAt" DESC
   LIMIT $4`;
