import { skipToken } from '@reduxjs/toolkit/query';
import { useTranslation } from 'react-i18next';
import { Bar, BarChart, CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { SEARCH_DEBOUNCE_MS, useDebounced } from '../../app/use-debounced';
import { ChartCard } from './ChartCard';
import { chartQuery, daysChartPoints, usersChartPoints, type DayRange, type FilterProblem } from './dashboard-rules';
import { useTicketsDayQuery, useTicketsUsersQuery, type ChartQuery } from './dashboard.api';

const BAR_COLOR = '#319795';
const LINE_COLOR = '#3182ce';
/** the size drawn before the card is measured */
const CHART_SIZE = { width: 480, height: 288 };

/** The range as sent: once it has not changed for a moment (a date typed digit by digit is not a query each time). */
function useChartArgs(range: DayRange): { args: ChartQuery | typeof skipToken; problem: FilterProblem | null } {
  const from = useDebounced(range.from, SEARCH_DEBOUNCE_MS);
  const to = useDebounced(range.to, SEARCH_DEBOUNCE_MS);
  const sent = chartQuery({ from, to });
  const now = chartQuery(range);
  return { args: 'query' in sent ? sent.query : skipToken, problem: 'problem' in now ? now.problem : null };
}

interface ChartProps {
  range: DayRange;
  onRangeChange(range: DayRange): void;
}

/** "Atendimentos por usuário": tickets each user closed in the range, as bars. */
export function TicketsUsersChart({ range, onRangeChange }: ChartProps) {
  const { t } = useTranslation();
  const { args, problem } = useChartArgs(range);
  const res = useTicketsUsersQuery(args, { refetchOnMountOrArgChange: true });
  const points = usersChartPoints(res.data);
  return (
    <ChartCard
      title={t('dashboard.charts.users')}
      testId="dashboard-chart-users"
      range={range}
      onRangeChange={onRangeChange}
      problem={problem}
      loading={res.isFetching}
      error={res.isError ? t('dashboard.charts.usersError') : null}
      total={res.isError ? undefined : res.data?.count}
      empty={points.length === 0}
    >
      <ResponsiveContainer width="100%" height="100%" initialDimension={CHART_SIZE}>
        <BarChart data={points} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 12 }} />
          <YAxis allowDecimals={false} width={36} tick={{ fontSize: 12 }} />
          <Tooltip />
          <Bar dataKey="value" name={t('dashboard.charts.tickets')} fill={BAR_COLOR} radius={[4, 4, 0, 0]} maxBarSize={48} />
        </BarChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}

/** "Atendimentos": tickets created per day of the range (per hour for a single day), as a line. */
export function TicketsDayChart({ range, onRangeChange }: ChartProps) {
  const { t } = useTranslation();
  const { args, problem } = useChartArgs(range);
  const res = useTicketsDayQuery(args, { refetchOnMountOrArgChange: true });
  const points = daysChartPoints(res.data);
  return (
    <ChartCard
      title={t('dashboard.charts.days')}
      testId="dashboard-chart-days"
      range={range}
      onRangeChange={onRangeChange}
      problem={problem}
      loading={res.isFetching}
      error={res.isError ? t('dashboard.charts.daysError') : null}
      total={res.isError ? undefined : res.data?.count}
      empty={points.length === 0}
    >
      <ResponsiveContainer width="100%" height="100%" initialDimension={CHART_SIZE}>
        <LineChart data={points} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 12 }} />
          <YAxis allowDecimals={false} width={36} tick={{ fontSize: 12 }} />
          <Tooltip />
          <Line
            type="monotone"
            dataKey="value"
            name={t('dashboard.charts.tickets')}
            stroke={LINE_COLOR}
            strokeWidth={2}
            dot={points.length <= 31}
          />
        </LineChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}
