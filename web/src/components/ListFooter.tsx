import { Center, Spinner } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../app/errors';

/** What an infinite list query tells its table's footer. */
interface PagedQuery {
  isLoading: boolean;
  isFetchingNextPage: boolean;
  isError: boolean;
  error?: unknown;
}

/** Under a paged table (its next pages come with the scroll, app/list-page `useScrollPaging`): loading, the error, or "no records". */
export function ListFooter({ query, count }: { query: PagedQuery; count: number }) {
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
    </>
  );
}
