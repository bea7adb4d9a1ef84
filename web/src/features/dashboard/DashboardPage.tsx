import { Box, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { skipToken } from '@reduxjs/toolkit/query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../app/errors';
import { companyToday } from '../../app/expiry';
import { selectUser } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { SEARCH_DEBOUNCE_MS, useDebounced } from '../../app/use-debounced';
import { AttendantsTable } from './AttendantsTable';
import { CounterCards } from './CounterCards';
import { DashboardFilterBar } from './DashboardFilterBar';
import { chartRange, dashboardQuery, defaultFilter, type DashboardFilter, type DayRange } from './dashboard-rules';
import { useDashboardQuery } from './dashboard.api';
import { TicketsDayChart, TicketsUsersChart } from './TicketsCharts';

/**
 * / (spec 01 §2 "Dashboard", admins): the filter (by date or by period), the counters, the attendants and
 * two charts with their own ranges (by default the filter's). recharts comes with this chunk only.
 */
export default function DashboardPage() {
  const { t } = useTranslation();
  const user = useAppSelector(selectUser);
  const isSuper = user?.super === true;
  // the company's day, as the server counts the figures (not this browser's clock)
  const today = companyToday(user?.company);
  const [filter, setFilter] = useState<DashboardFilter>(() => defaultFilter(today));
  const applied = useDebounced(filter, SEARCH_DEBOUNCE_MS);
  const sent = dashboardQuery(applied);
  const answer = useDashboardQuery('query' in sent ? sent.query : skipToken, { refetchOnMountOrArgChange: true });
  const [usersRange, setUsersRange] = useState<DayRange | null>(null);
  const [daysRange, setDaysRange] = useState<DayRange | null>(null);

  return (
    <Box p={{ base: '3', md: '6' }} data-testid="dashboard-page">
      <Stack gap="4">
        <Heading size="lg">{t('dashboard.title')}</Heading>
        <DashboardFilterBar filter={filter} onChange={setFilter} />
        {answer.isError && (
          <Text color="fg.error" data-testid="dashboard-error">
            {errorText(answer.error)}
          </Text>
        )}
        <CounterCards counters={answer.data?.counters} isSuper={isSuper} loading={answer.isFetching} />
        <AttendantsTable attendants={answer.data?.attendants} />
        <SimpleGrid columns={{ base: 1, xl: 2 }} gap="4">
          <TicketsUsersChart range={chartRange(usersRange, filter, today)} onRangeChange={setUsersRange} />
          <TicketsDayChart range={chartRange(daysRange, filter, today)} onRangeChange={setDaysRange} />
        </SimpleGrid>
      </Stack>
    </Box>
  );
}
