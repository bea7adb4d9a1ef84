/** The SQL of queue-options.service.ts, by name. */

/** Options on one level of a tree at most (the bot reads them out as one menu). */
export const MAX_OPTIONS_PER_LEVEL = 100;

export const SELECT_OPTIONS_OF_LEVEL = `SELECT o.*, (SELECT count(*)::int FROM tickets.queue_options c WHERE c."parentId" = o.id) AS children
         FROM tickets.queue_options o
        WHERE o."companyId" = $1 AND o."queueId" = $2 AND o."parentId" IS NOT DISTINCT FROM $3::int
        ORDER BY o.option::int, o.id LIMIT ${MAX_OPTIONS_PER_LEVEL}`;

export const BRANCH_FILES = `WITH RECURSIVE branch AS (
           SELECT id, "mediaPath" FROM tickets.queue_options WHERE id = $1 AND "companyId" = $2
           UNION ALL SELECT o.id, o."mediaPath" FROM tickets.queue_options o JOIN branch b ON o."parentId" = b.id)
         SELECT "mediaPath" AS path FROM branch WHERE "mediaPath" IS NOT NULL`;
