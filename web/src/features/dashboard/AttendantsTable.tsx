import { Box, Center, Heading, HStack, Table, Text } from '@chakra-ui/react';
import type { DashboardAnswer } from '@wa/contracts';
import { useTranslation } from 'react-i18next';
import { MdStar, MdStarBorder, MdStarHalf } from 'react-icons/md';
import { languageTag } from '../../app/i18n';
import { formatMinutes, ratingStars } from './dashboard-rules';

type Attendant = DashboardAnswer['attendants'][number];

const STAR = { full: MdStar, half: MdStarHalf, empty: MdStarBorder } as const;

/** An average rating (1 to 3) as stars and its value; "no rating" when there is none. */
function Rating({ rating }: { rating: number | null }) {
  const { t, i18n } = useTranslation();
  const stars = ratingStars(rating);
  if (!stars || rating === null) {
    return (
      <Text as="span" color="fg.muted" textStyle="sm">
        {t('dashboard.attendants.noRating')}
      </Text>
    );
  }
  const value = rating.toLocaleString(languageTag(i18n.language), { maximumFractionDigits: 1 });
  return (
    <HStack
      gap="0.5"
      aria-label={t('dashboard.attendants.ratingOf', { value })}
      title={t('dashboard.attendants.ratingOf', { value })}
      data-rating={rating}
    >
      {stars.map((s, i) => {
        const Icon = STAR[s];
        return (
          <Box key={i} as="span" color={s === 'empty' ? 'fg.subtle' : 'orange.400'}>
            <Icon />
          </Box>
        );
      })}
      <Text as="span" textStyle="xs" color="fg.muted" ms="1">
        {value}
      </Text>
    </HStack>
  );
}

/** Online now: a green dot, else a red one, with the word. */
function OnlineStatus({ online }: { online: boolean }) {
  const { t } = useTranslation();
  return (
    <HStack gap="2" data-online={online}>
      <Box w="2.5" h="2.5" borderRadius="full" bg={online ? 'green.500' : 'red.500'} />
      <Text as="span" textStyle="sm">
        {online ? t('dashboard.attendants.online') : t('dashboard.attendants.offline')}
      </Text>
    </HStack>
  );
}

/** spec 01 §2: the attendants table (name, rating, average support time, online). */
export function AttendantsTable({ attendants }: { attendants: Attendant[] | undefined }) {
  const { t } = useTranslation();
  const rows = attendants ?? [];
  return (
    <Box bg="bg" borderWidth="1px" borderRadius="md" overflowX="auto">
      <Heading size="sm" px="4" pt="3" pb="2">
        {t('dashboard.attendants.title')}
      </Heading>
      <Table.Root size="sm" data-testid="dashboard-attendants">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>{t('dashboard.attendants.name')}</Table.ColumnHeader>
            <Table.ColumnHeader>{t('dashboard.attendants.rating')}</Table.ColumnHeader>
            <Table.ColumnHeader>{t('dashboard.attendants.avgSupportTime')}</Table.ColumnHeader>
            <Table.ColumnHeader>{t('dashboard.attendants.status')}</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map((a) => (
            <Table.Row key={a.id} data-testid="dashboard-attendant" data-attendant-id={a.id}>
              <Table.Cell fontWeight="medium">{a.name}</Table.Cell>
              <Table.Cell>
                <Rating rating={a.rating} />
              </Table.Cell>
              <Table.Cell>{formatMinutes(a.avgSupportTime)}</Table.Cell>
              <Table.Cell>
                <OnlineStatus online={a.online} />
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
      {attendants && rows.length === 0 && (
        <Center py="6" color="fg.muted">
          {t('common.noRecords')}
        </Center>
      )}
    </Box>
  );
}
