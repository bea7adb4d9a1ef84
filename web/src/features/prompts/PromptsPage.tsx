import { Box, Table } from '@chakra-ui/react';
import type { PromptDto } from '@wa/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router-dom';
import { ListFooter } from '../../components/ListFooter';
import { ListPageHeader, ListTableBox, RowActions, useConfirmedDelete, useScrollPaging } from '../../app/list-page';
import { PlanGate } from '../../app/PermissionGate';
import { selectIsAdmin } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { SEARCH_DEBOUNCE_MS, useDebounced } from '../../app/use-debounced';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { PromptDialog } from './PromptDialog';
import { useDeletePromptMutation, useListPromptsInfiniteQuery } from './prompts.api';

/**
 * /prompts (spec 02 §2 "Prompts", §6): the company's AI agents, for admins whose plan has useOpenAi (others
 * get the permission notice and go to / after 1 s): a searchable, paged table (name, queue, max tokens), add,
 * edit and delete with confirmation.
 */
export default function PromptsPage() {
  const isAdmin = useAppSelector(selectIsAdmin);
  // an admin screen (spec 01 §2 "admin group")
  if (!isAdmin) return <Navigate to="/tickets" replace />;
  return (
    <PlanGate flag="useOpenAi">
      <Prompts />
    </PlanGate>
  );
}

function Prompts() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const searchParam = useDebounced(search.trim(), SEARCH_DEBOUNCE_MS);
  const list = useListPromptsInfiniteQuery(searchParam);
  const prompts = list.data?.pages.flatMap((p) => p.prompts) ?? [];
  const paging = useScrollPaging(list, prompts.length);
  const count = list.data?.pages[0]?.count ?? prompts.length;
  const [editing, setEditing] = useState<PromptDto | null | undefined>(undefined);
  const [remove, removing] = useDeletePromptMutation();
  const { deleting, setDeleting, confirm: confirmDelete } = useConfirmedDelete<PromptDto>(remove, t('prompts.toasts.deleted'));

  return (
    <Box p={{ base: '3', md: '6' }} h="full" display="flex" flexDirection="column" data-testid="prompts-page">
      <ListPageHeader
        title={t('prompts.title')}
        count={count}
        search={search}
        onSearch={setSearch}
        searchLabel={t('prompts.search')}
        addLabel={t('prompts.add')}
        onAdd={() => setEditing(null)}
        testId="prompts"
      />
      <ListTableBox paging={paging} testId="prompts-list">
        <Table.Root size="sm" data-testid="prompts-table">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>{t('prompts.columns.name')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('prompts.columns.queue')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="center">{t('prompts.columns.maxTokens')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="center">{t('prompts.columns.actions')}</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {prompts.map((p) => (
              <Table.Row key={p.id} data-testid={`prompt-row-${p.id}`} data-prompt-id={p.id}>
                <Table.Cell fontWeight="medium" data-testid="prompt-name-cell">
                  {p.name}
                </Table.Cell>
                <Table.Cell color={p.queue ? undefined : 'fg.muted'} data-testid="prompt-queue-cell">
                  {p.queue?.name ?? '—'}
                </Table.Cell>
                <Table.Cell textAlign="center" data-testid="prompt-max-tokens-cell">
                  {p.maxTokens}
                </Table.Cell>
                <Table.Cell textAlign="center">
                  <RowActions onEdit={() => setEditing(p)} onDelete={() => setDeleting(p)} testId="prompt" />
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
        <ListFooter query={list} count={prompts.length} />
      </ListTableBox>
      {editing !== undefined && <PromptDialog key={editing?.id ?? 'new'} prompt={editing} onClose={() => setEditing(undefined)} />}
      <ConfirmDialog
        open={!!deleting}
        title={t('prompts.confirm.deleteTitle', { name: deleting?.name ?? '' })}
        message={t('prompts.confirm.deleteMessage')}
        busy={removing.isLoading}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </Box>
  );
}
