/** The SQL of dashboard.service.ts, by name. */

export const COUNT_OPEN_AND_PENDING = `SELECT status, count(*)::int AS n FROM tickets.tickets WHERE "companyId" = $1 AND status IN ('open', 'pending') GROUP BY status`;

export const COUNT_CONNECTED = `SELECT count(*)::int AS n FROM tickets.connections WHERE status = 'CONNECTED'`;

export const TICKETS_BY_HOUR = `SELECT extract(hour FROM "createdAt" AT TIME ZONE $2)::int AS hour, count(*)::int AS n
           FROM tickets.tickets WHERE "companyId" = $1 AND "createdAt" >= $3 AND "createdAt" < $4 GROUP BY 1 ORDER BY 1`;

export const SELECT_DASHBOARD_DAYS = `SELECT to_char(day, 'YYYY-MM-DD') AS day, figures FROM tickets.dashboard_days WHERE "companyId" = $1 AND "timeZone" = $2 AND day BETWEEN $3 AND $4`;

export const LOCK_DASHBOARD_DAYS = `SELECT pg_advisory_xact_lock(hashtext('tickets-dashboard-days'), $1)`;

export const UPSERT_DASHBOARD_DAYS = `INSERT INTO tickets.dashboard_days ("companyId", "timeZone", day, figures)
             SELECT $1, $2, d.day::date, d.figures FROM jsonb_to_recordset($3::jsonb) AS d(day text, figures jsonb)
             ON CONFLICT ("companyId", "timeZone", day) DO UPDATE SET figures = EXCLUDED.figures, "computedAt" = now()`;

export const TICKETS_CREATED_BY_DAY = `SELECT to_char(("createdAt" AT TIME ZONE $2)::date, 'YYYY-MM-DD') AS day, count(*)::int AS n
           FROM tickets.tickets WHERE "companyId" = $1 AND "createdAt" >= $3 AND "createdAt" < $4 GROUP BY 1`;

export const TICKETS_CLOSED_BY_DAY_AND_USER = `SELECT to_char(("closedAt" AT TIME ZONE $2)::date, 'YYYY-MM-DD') AS day, COALESCE("userId", 0) AS "userId", count(*)::int AS finished,
                COALESCE(sum(extract(epoch FROM "closedAt" - "acceptedAt")) FILTER (WHERE "acceptedAt" IS NOT NULL AND "acceptedAt" <= "closedAt"), 0)::float8 AS "supportSeconds",
                count(*) FILTER (WHERE "acceptedAt" IS NOT NULL AND "acceptedAt" <= "closedAt")::int AS "supportCount",
                COALESCE(sum(rating), 0)::int AS "ratingSum", count(rating)::int AS "ratingCount"
           FROM tickets.tickets WHERE "companyId" = $1 AND "closedAt" >= $3 AND "closedAt" < $4 GROUP BY 1, 2`;

export const TICKETS_ACCEPTED_BY_DAY_AND_USER = `SELECT to_char(("acceptedAt" AT TIME ZONE $2)::date, 'YYYY-MM-DD') AS day, COALESCE("userId", 0) AS "userId", count(*)::int AS accepted,
                COALESCE(sum(extract(epoch FROM "acceptedAt" - "queuedAt")), 0)::float8 AS "waitSeconds"
           FROM tickets.tickets WHERE "companyId" = $1 AND "acceptedAt" >= $3 AND "acceptedAt" < $4 AND "queuedAt" IS NOT NULL AND "queuedAt" <= "acceptedAt" GROUP BY 1, 2`;
