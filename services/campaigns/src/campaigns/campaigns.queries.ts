/** The SQL of campaigns.repository.ts, by name. */

/** A page of the company's campaigns, newest first, with the names the list shows; $2: a name filter or null. */
export const CAMPAIGNS_PAGE = `SELECT c.*, w.name AS "whatsappName", l.name AS "contactListName"
  FROM campaigns.campaigns c
  LEFT JOIN campaigns.connections w ON w.id = c."whatsappId" AND w."companyId" = c."companyId"
  LEFT JOIN campaigns.contact_lists l ON l.id = c."contactListId" AND l."companyId" = c."companyId"
 WHERE c."companyId" = $1 AND ($2::text IS NULL OR lower(c.name) LIKE $2 ESCAPE '\\')
 ORDER BY c.id DESC
 LIMIT $3 OFFSET $4`;

export const CAMPAIGNS_COUNT = `SELECT count(*)::int AS count FROM campaigns.campaigns c
 WHERE c."companyId" = $1 AND ($2::text IS NULL OR lower(c.name) LIKE $2 ESCAPE '\\')`;

/** The row a write changes, locked until its transaction ends (the dispatcher's start waits on it). */
export const CAMPAIGN_FOR_UPDATE = `SELECT * FROM campaigns.campaigns WHERE "companyId" = $1 AND id = $2 FOR UPDATE`;

export const CONTACT_LIST_EXISTS = `SELECT 1 FROM campaigns.contact_lists WHERE "companyId" = $1 AND id = $2`;

/** The report's rows after `$3`, by id (the CSV export pages through them). */
export const SHIPPINGS_AFTER = `SELECT id, number, name, email, status, "confirmationMessage", "confirmationRequestedAt", "confirmedAt",
       message, "sentAt", "deliveredAt", "readAt", "failedAt", "failedReason"
  FROM campaigns.shippings
 WHERE "companyId" = $1 AND "campaignId" = $2 AND id > $3
 ORDER BY id
 LIMIT $4`;
