import { Field, Flex, Input, NativeSelect, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { dashboardQuery, DASHBOARD_MAX_DAYS, PERIOD_CHOICES, type DashboardFilter, type FilterType } from './dashboard-rules';

/** The dashboard's filter (spec 01 §2): by date (from–to) or by period (the last 3 to 90 days); figures follow it. */
export function DashboardFilterBar({ filter, onChange }: { filter: DashboardFilter; onChange(f: DashboardFilter): void }) {
  const { t } = useTranslation();
  const result = dashboardQuery(filter);
  const problem = 'problem' in result ? result.problem : null;

  return (
    <Flex gap="3" wrap="wrap" align="flex-end" data-testid="dashboard-filter">
      <Field.Root w={{ base: 'full', sm: '48' }}>
        <Field.Label>{t('dashboard.filterType')}</Field.Label>
        <NativeSelect.Root size="sm">
          <NativeSelect.Field
            value={filter.type}
            onChange={(e) => onChange({ ...filter, type: e.target.value as FilterType })}
            data-testid="dashboard-filter-type"
          >
            <option value="date">{t('dashboard.filterTypes.date')}</option>
            <option value="period">{t('dashboard.filterTypes.period')}</option>
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Field.Root>
      {filter.type === 'period' ? (
        <Field.Root w={{ base: 'full', sm: '48' }} invalid={!!problem}>
          <Field.Label>{t('dashboard.period')}</Field.Label>
          <NativeSelect.Root size="sm">
            <NativeSelect.Field
              value={filter.period}
              onChange={(e) => onChange({ ...filter, period: e.target.value ? Number(e.target.value) : '' })}
              data-testid="dashboard-period"
            >
              <option value="">{t('dashboard.noPeriod')}</option>
              {PERIOD_CHOICES.map((n) => (
                <option key={n} value={n}>
                  {t('dashboard.lastDays', { n })}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
      ) : (
        <>
          <Field.Root w={{ base: 'full', sm: '44' }} invalid={!!problem}>
            <Field.Label>{t('dashboard.dateFrom')}</Field.Label>
            <Input
              size="sm"
              type="date"
              value={filter.dateFrom}
              max={filter.dateTo || undefined}
              onChange={(e) => onChange({ ...filter, dateFrom: e.target.value })}
              data-testid="dashboard-date-from"
            />
          </Field.Root>
          <Field.Root w={{ base: 'full', sm: '44' }} invalid={!!problem}>
            <Field.Label>{t('dashboard.dateTo')}</Field.Label>
            <Input
              size="sm"
              type="date"
              value={filter.dateTo}
              min={filter.dateFrom || undefined}
              onChange={(e) => onChange({ ...filter, dateTo: e.target.value })}
              data-testid="dashboard-date-to"
            />
          </Field.Root>
        </>
      )}
      {problem && (
        <Text color="fg.error" textStyle="sm" pb="2" data-testid="dashboard-filter-error">
          {problem === 'empty' ? t('dashboard.emptyFilter') : t('dashboard.maxDays', { n: DASHBOARD_MAX_DAYS })}
        </Text>
      )}
    </Flex>
  );
}
