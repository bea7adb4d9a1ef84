/** The statements of the schedules' jobs (ScheduleJobs). */

/**
 * Schedules still to send, of every company (the sweep puts their jobs back), after ($1 sendAt, $2 id), $3 at most;
 * `overdueOnly`: only those due more than $4 ms ago.
 */
export function pendingSchedulesSql(overdueOnly: boolean): string {
  return `SELECT id, "companyId", "sendAt" FROM tickets.schedules
            WHERE status = 'PENDENTE' AND ("sendAt", id) > ($1, $2) ${overdueOnly ? `AND "sendAt" < now() - ($4 || ' milliseconds')::interval` : ''}
            ORDER BY "sendAt", id LIMIT $3`;
}
