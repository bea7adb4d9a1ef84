import { Badge, Box, Icon, Table } from '@chakra-ui/react';
import type { TagDto } from '@wa/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdViewKanban } from 'react-icons/md';
import { ListFooter } from '../../components/ListFooter';
import { ListPageHeader, ListTableBox, RowActions, useConfirmedDelete, useScrollPaging } from '../../app/list-page';
import { selectUser } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { SEARCH_DEBOUNCE_MS, useDebounced } from '../../app/use-debounced';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { colorPillStyle } from '../../app/contrast';
import { TagDialog } from './TagDialog';
import { useDeleteTagMutation, useListTagsPageInfiniteQuery } from './tags.api';

/** A tag as a chip of its colour. */
function TagChip({ tag }: { tag: Pick<TagDto, 'name' | 'color'> }) {
  return (
    <Badge size="md" borderRadius="full" px="2.5" style={colorPillStyle(tag.color)} data-testid="tag-chip">
      {tag.name}
    </Badge>
  );
}

/**
 * /tags (spec 02 "Tags"), for everyone signed in: the company's tags as a searchable, paged table (the name
 * as a chip of its colour, how many tickets carry it, whether it is a lane of the kanban), with add, edit
 * and delete behind a confirmation (admins and supervisors only: the server refuses an agent's delete).
 */
export default function TagsPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const searchParam = useDebounced(search.trim(), SEARCH_DEBOUNCE_MS);
  const list = useListTagsPageInfiniteQuery(searchParam);
  const tags = list.data?.pages.flatMap((p) => p.tags ?? []) ?? [];
  const paging = useScrollPaging(list, tags.length);
  const count = list.data?.pages[0]?.count ?? tags.length;
  const [editing, setEditing] = useState<TagDto | null | undefined>(undefined);
  const [remove, removing] = useDeleteTagMutation();
  const { deleting, setDeleting, confirm: confirmDelete } = useConfirmedDelete<TagDto>(remove, t('tags.toasts.deleted'));
  const mayDelete = useAppSelector(selectUser)?.profile !== 'user';

  return (
    <Box p={{ base: '3', md: '6' }} h="full" display="flex" flexDirection="column" data-testid="tags-page">
      <ListPageHeader
        title={t('tags.title')}
        count={count}
        search={search}
        onSearch={setSearch}
        searchLabel={t('tags.search')}
        addLabel={t('tags.add')}
        onAdd={() => setEditing(null)}
        testId="tags"
      />
      <ListTableBox paging={paging} testId="tags-list">
        <Table.Root size="sm" data-testid="tags-table">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>{t('tags.columns.name')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="center">{t('tags.columns.tickets')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="center">{t('tags.columns.kanban')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="center">{t('tags.columns.actions')}</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {tags.map((tag) => (
              <Table.Row key={tag.id} data-testid={`tag-row-${tag.id}`}>
                <Table.Cell data-testid="tag-name-cell">
                  <TagChip tag={tag} />
                </Table.Cell>
                <Table.Cell textAlign="center" data-testid="tag-tickets-cell">
                  {tag.ticketsCount ?? 0}
                </Table.Cell>
                <Table.Cell textAlign="center" data-testid="tag-kanban-cell" data-kanban={tag.kanban === 1 ? 'yes' : 'no'}>
                  {tag.kanban === 1 ? (
                    <Icon color="teal.fg" boxSize="5" aria-label={t('tags.onKanban')}>
                      <MdViewKanban title={t('tags.onKanban')} />
                    </Icon>
                  ) : (
                    <Box as="span" color="fg.muted">
                      —
                    </Box>
                  )}
                </Table.Cell>
                <Table.Cell textAlign="center">
                  <RowActions onEdit={() => setEditing(tag)} onDelete={mayDelete ? () => setDeleting(tag) : undefined} testId="tag" />
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
        <ListFooter query={list} count={tags.length} />
      </ListTableBox>
      {editing !== undefined && <TagDialog key={editing?.id ?? 'new'} tag={editing} onClose={() => setEditing(undefined)} />}
      <ConfirmDialog
        open={!!deleting}
        title={t('tags.confirm.deleteTitle', { name: deleting?.name ?? '' })}
        message={t('tags.confirm.deleteMessage')}
        busy={removing.isLoading}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </Box>
  );
}
