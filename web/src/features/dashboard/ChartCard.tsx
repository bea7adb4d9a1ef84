import { Box, Center, Field, Flex, Heading, Input, Spinner, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { DayRange, FilterProblem } from './dashboard-rules';
import { DASHBOARD_MAX_DAYS } from './dashboard-rules';

/**
 * A chart with its own date range (spec 01 §2: tickets per user, tickets per day): the title and total,
 * the range's two fields, then the chart, the spinner, the chart's error text or "no tickets".
 */
export function ChartCard(props: {
  title: string;
  testId: string;
  range: DayRange;
  onRangeChange(range: DayRange): void;
  /** why the range is not sent */
  problem: FilterProblem | null;
  loading: boolean;
  /** the spec's text for this chart's failure, when it failed */
  error: string | null;
  total: number | undefined;
  empty: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { range, testId } = props;
  let body: ReactNode = props.children;
  if (props.problem) {
    body = (
      <Text color="fg.error" data-testid={`${testId}-filter-error`}>
        {props.problem === 'empty' ? t('dashboard.emptyFilter') : t('dashboard.maxDays', { n: DASHBOARD_MAX_DAYS })}
      </Text>
    );
  } else if (props.error) {
    body = (
      <Text color="fg.error" data-testid={`${testId}-error`}>
        {props.error}
      </Text>
    );
  } else if (props.loading && props.total === undefined) {
    body = <Spinner color="teal.solid" />;
  } else if (props.empty) {
    body = (
      <Text color="fg.muted" data-testid={`${testId}-empty`}>
        {t('dashboard.charts.empty')}
      </Text>
    );
  }
  const centered = body !== props.children;

  return (
    <Box bg="bg" borderWidth="1px" borderRadius="md" p="4" data-testid={testId} data-total={props.total}>
      <Flex gap="3" wrap="wrap" align="flex-end" mb="3">
        <Box flex="1" minW="40">
          <Heading size="sm">{props.title}</Heading>
          {props.total !== undefined && !props.problem && !props.error && (
            <Text textStyle="sm" color="fg.muted" data-testid={`${testId}-total`}>
              {t('dashboard.charts.total', { n: props.total })}
            </Text>
          )}
        </Box>
        <Field.Root w="40">
          <Field.Label textStyle="xs">{t('dashboard.charts.from')}</Field.Label>
          <Input
            size="xs"
            type="date"
            value={range.from}
            max={range.to || undefined}
            onChange={(e) => props.onRangeChange({ ...range, from: e.target.value })}
            data-testid={`${testId}-from`}
          />
        </Field.Root>
        <Field.Root w="40">
          <Field.Label textStyle="xs">{t('dashboard.charts.to')}</Field.Label>
          <Input
            size="xs"
            type="date"
            value={range.to}
            min={range.from || undefined}
            onChange={(e) => props.onRangeChange({ ...range, to: e.target.value })}
            data-testid={`${testId}-to`}
          />
        </Field.Root>
      </Flex>
      {centered ? <Center h="72">{body}</Center> : <Box h="72">{body}</Box>}
    </Box>
  );
}
