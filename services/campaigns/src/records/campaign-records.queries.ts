/** The SQL of campaign-records.ts, by name. */

export const CAMPAIGN_ROW = `SELECT c.*, w.name AS "whatsappName", l.name AS "contactListName"
  FROM campaigns.campaigns c
  LEFT JOIN campaigns.connections w ON w.id = c."whatsappId" AND w."companyId" = c."companyId"
  LEFT JOIN campaigns.contact_lists l ON l.id = c."contactListId" AND l."companyId" = c."companyId"
 WHERE c."companyId" = $1 AND c.id = $2`;

export const REPORT_COUNTS = `SELECT
    count(*) FILTER (WHERE status <> 'invalid') AS valid,
    count(*) FILTER (WHERE status = 'invalid') AS invalid,
    count(*) FILTER (WHERE "sentAt" IS NOT NULL) AS sent,
    count(*) FILTER (WHERE "deliveredAt" IS NOT NULL) AS delivered,
    count(*) FILTER (WHERE "readAt" IS NOT NULL) AS read,
    count(*) FILTER (WHERE status = 'failed') AS failed,
    count(*) FILTER (WHERE status IN ('pending', 'confirmed', 'queued')) AS pending,
    count(*) FILTER (WHERE "confirmationRequestedAt" IS NOT NULL) AS "confirmationRequested",
    count(*) FILTER (WHERE "confirmedAt" IS NOT NULL) AS confirmed,
    count(*) FILTER (WHERE status = 'opted_out') AS "optedOut"
  FROM campaigns.shippings WHERE "companyId" = $1 AND "campaignId" = $2`;
