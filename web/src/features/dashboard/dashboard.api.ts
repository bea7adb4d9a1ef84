import type { DashboardAnswer, DashboardChart, DashboardChartQuery } from '@wa/contracts';
import { api } from '../../app/api';
import type { DashboardQuery } from './dashboard-rules';

/** `GET /dashboard/ticketsUsers` and `/ticketsDay`: both days given (YYYY-MM-DD). */
export type ChartQuery = Required<Pick<DashboardChartQuery, 'initialDate' | 'finalDate'>>;

const dashboardApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `GET /dashboard?days=N` or `?date_from&date_to`: counters and attendants (admins) */
    dashboard: build.query<DashboardAnswer, DashboardQuery>({
      query: (params) => ({ url: '/dashboard', params }),
    }),
    /** `GET /dashboard/ticketsUsers`: tickets each user closed in the range */
    ticketsUsers: build.query<DashboardChart, ChartQuery>({
      query: (params) => ({ url: '/dashboard/ticketsUsers', params }),
    }),
    /** `GET /dashboard/ticketsDay`: tickets created per day (per hour for one day) */
    ticketsDay: build.query<DashboardChart, ChartQuery>({
      query: (params) => ({ url: '/dashboard/ticketsDay', params }),
    }),
  }),
});

export const { useDashboardQuery, useTicketsUsersQuery, useTicketsDayQuery } = dashboardApi;
