import { Box, SimpleGrid, Text } from '@chakra-ui/react';
import type { DashboardAnswer } from '@wa/contracts';
import { useTranslation } from 'react-i18next';
import { counterCards } from './dashboard-rules';

/** The dashboard's counters (spec 01 §2): the provider's cards for super users, then the company's five. */
export function CounterCards({
  counters,
  isSuper,
  loading,
}: {
  counters: DashboardAnswer['counters'] | undefined;
  isSuper: boolean;
  loading: boolean;
}) {
  const { t } = useTranslation();
  return (
    <SimpleGrid columns={{ base: 1, sm: 2, lg: isSuper ? 4 : 5 }} gap="3" data-testid="dashboard-counters">
      {counterCards(counters, isSuper).map((c) => (
        <Box key={c.key} bg="bg" borderWidth="1px" borderRadius="md" p="4" data-testid={`dashboard-card-${c.key}`}>
          <Text textStyle="sm" color="fg.muted">
            {t(`dashboard.counters.${c.key}`)}
          </Text>
          <Text
            textStyle="2xl"
            fontWeight="semibold"
            mt="1"
            opacity={loading ? 0.5 : 1}
            data-testid={`dashboard-counter-${c.key}`}
            data-value={counters ? c.value : undefined}
          >
            {counters ? c.text : '–'}
          </Text>
        </Box>
      ))}
    </SimpleGrid>
  );
}
