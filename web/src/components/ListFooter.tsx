import { Button, Center, Spinner } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../app/errors';

/** What an infinite list query tells its table's footer. */
interface PagedQuery {
  isLoading: boolean;
  isFetchingNextPage: boolean;
  isError: boolean;
  error?: unknown;
  hasNextPage: boolean;
  fetchNextPage(): unknown;
}

/** Under a paged table: loading, the error, "no records", or "load more". */
export function ListFooter({ query, count, moreTestId }: { query: PagedQuery; count: number; moreTestId?: string }) {
  const { t } = useTranslation();
  return (
    <>
      {(query.isLoading || query.isFetchingNextPage) && (
        <Center py="6">
          <Spinner />
        </Center>
      )}
      {query.isError && (
        <Center py="8" color="fg.error">
          {errorText(query.error)}
        </Center>
      )}
      {!query.isLoading && !query.isError && count === 0 && (
        <Center py="8" color="fg.muted">
          {t('common.noRecords')}
        </Center>
      )}
      {query.hasNextPage && !query.isFetchingNextPage && (
        <Center py="3">
          <Button size="sm" variant="ghost" onClick={() => void query.fetchNextPage()} data-testid={moreTestId}>
            {t('contacts.more')}
          </Button>
        </Center>
      )}
    </>
  );
}
