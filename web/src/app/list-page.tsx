import { Box, Button, Flex, Heading, HStack, IconButton, Input, Text } from '@chakra-ui/react';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { MdAdd, MdDelete, MdEdit } from 'react-icons/md';
import { notify } from './notify';
import { isNearEnd, LIST_END_PX } from './scroll';

/** A list page's header (`ListPageHeader`): what a page leaves out does not show. */
export interface ListPageHeaderProps {
  title: string;
  /** shown after the title, in brackets */
  count?: number;
  /** the search box, when `onSearch` is given */
  search?: string;
  onSearch?(value: string): void;
  searchLabel?: string;
  /** the add button, when `onAdd` is given (the caller may not) */
  addLabel?: string;
  onAdd?(): void;
  testId: string;
  /** the add button's test id when it is not `<testId>-add` */
  addTestId?: string;
  /** the page's own controls (filters, import, export), between the search box and the add button */
  children?: ReactNode;
}

/**
 * The top of a list page: its title with the count, the search box, the page's own controls and the add button.
 * Test ids are `<testId>-title`, `-count`, `-search`, `-add`.
 */
export function ListPageHeader(props: ListPageHeaderProps) {
  const { testId } = props;
  return (
    <Flex gap="3" mb="4" align="center" wrap="wrap">
      <Heading size="lg" flex="1" data-testid={`${testId}-title`}>
        {props.title}
        {props.count !== undefined && (
          <>
            {' '}
            <Text as="span" color="fg.muted" textStyle="md" data-testid={`${testId}-count`}>
              ({props.count})
            </Text>
          </>
        )}
      </Heading>
      {props.onSearch && (
        <Input
          size="sm"
          maxW="64"
          placeholder={props.searchLabel}
          aria-label={props.searchLabel}
          value={props.search ?? ''}
          onChange={(e) => props.onSearch?.(e.target.value)}
          data-testid={`${testId}-search`}
        />
      )}
      {props.children}
      {props.onAdd && (
        <Button size="sm" colorPalette="teal" onClick={props.onAdd} data-testid={props.addTestId ?? `${testId}-add`}>
          <MdAdd />
          {props.addLabel}
        </Button>
      )}
    </Flex>
  );
}

/** A row's edit and delete buttons (test ids `<testId>-edit`, `<testId>-delete`); each shows only when given (the caller may not). */
export function RowActions({ onEdit, onDelete, testId }: { onEdit?: () => void; onDelete?: () => void; testId: string }) {
  const { t } = useTranslation();
  return (
    <HStack justify="center" gap="1">
      {onEdit && (
        <IconButton size="xs" variant="ghost" aria-label={t('common.edit')} onClick={onEdit} data-testid={`${testId}-edit`}>
          <MdEdit />
        </IconButton>
      )}
      {onDelete && (
        <IconButton
          size="xs"
          variant="ghost"
          colorPalette="red"
          aria-label={t('common.delete')}
          onClick={onDelete}
          data-testid={`${testId}-delete`}
        >
          <MdDelete />
        </IconButton>
      )}
    </HStack>
  );
}

/**
 * A delete behind a confirmation: `deleting` is the row asked about (null: none); `confirm` removes it, says
 * `doneText` and closes, or shows the server's error and stays.
 */
export function useConfirmedDelete<T extends { id: number }>(remove: (id: number) => { unwrap(): Promise<unknown> }, doneText: string) {
  const [deleting, setDeleting] = useState<T | null>(null);
  async function confirm() {
    if (!deleting) return;
    try {
      await remove(deleting.id).unwrap();
      notify.success(doneText);
      setDeleting(null);
    } catch (err) {
      notify.error(err);
    }
  }
  return { deleting, setDeleting, confirm };
}

/** What an infinite list query tells the scroll that pages it. */
interface PagingQuery {
  hasNextPage: boolean;
  isFetching: boolean;
  fetchNextPage(): unknown;
}

/**
 * Infinite scroll (spec 01 §9, spec 02 §9): put `ref` and `onScroll` on the list's scrolling box; the next page
 * loads when it is scrolled within 100 px of its end, and while the pages loaded do not fill it (no scroll yet).
 * `count` is the number of rows shown (a new page re-checks).
 */
export function useScrollPaging<E extends HTMLElement = HTMLDivElement>(query: PagingQuery, count: number) {
  const ref = useRef<E>(null);
  const { hasNextPage, isFetching, fetchNextPage } = query;
  const onScroll = useCallback(() => {
    const el = ref.current;
    // a box not laid out (hidden, or no layout at all) has no end to be near
    if (!el || !hasNextPage || isFetching || el.clientHeight === 0) return;
    if (isNearEnd(el, LIST_END_PX)) void fetchNextPage();
  }, [hasNextPage, isFetching, fetchNextPage]);
  // a first page shorter than the box has no scroll: load on until it fills
  useEffect(onScroll, [onScroll, count]);
  return { ref, onScroll };
}

/**
 * A list page's table box, below its header: it takes the height left, scrolls, and loads the next page within
 * 100 px of its end (`paging`: what useScrollPaging answers).
 */
export function ListTableBox({
  paging,
  testId,
  children,
}: {
  paging: ReturnType<typeof useScrollPaging>;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Box
      bg="bg"
      borderRadius="md"
      borderWidth="1px"
      overflowX="auto"
      ref={paging.ref}
      flex="0 1 auto"
      minH="0"
      overflowY="auto"
      onScroll={paging.onScroll}
      data-testid={testId}
    >
      {children}
    </Box>
  );
}
