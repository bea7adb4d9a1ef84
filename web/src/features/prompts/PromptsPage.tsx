import { Box, Button, Flex, Heading, HStack, IconButton, Input, Table, Text } from '@chakra-ui/react';
import type { PromptDto } from '@wa/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdAdd, MdDelete, MdEdit } from 'react-icons/md';
import { Navigate } from 'react-router-dom';
import { ListFooter } from '../../app/ListFooter';
import { notify } from '../../app/notify';
import { PlanGate } from '../../app/PermissionGate';
import { selectIsAdmin } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { SEARCH_DEBOUNCE_MS, useDebounced } from '../../app/use-debounced';
import { ConfirmDialog } from '../connections/ConfirmDialog';
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
  const count = list.data?.pages[0]?.count ?? prompts.length;
  const [editing, setEditing] = useState<PromptDto | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<PromptDto | null>(null);
  const [remove, removing] = useDeletePromptMutation();

  async function confirmDelete() {
    if (!deleting) return;
    try {
      await remove(deleting.id).unwrap();
      notify.success(t('prompts.toasts.deleted'));
      setDeleting(null);
    } catch (err) {
      notify.error(err);
    }
  }

  return (
    <Box p={{ base: '3', md: '6' }} data-testid="prompts-page">
      <Flex gap="3" mb="4" align="center" wrap="wrap">
        <Heading size="lg" flex="1" data-testid="prompts-title">
          {t('prompts.title')}{' '}
          <Text as="span" color="fg.muted" textStyle="md" data-testid="prompts-count">
            ({count})
          </Text>
        </Heading>
        <Input
          size="sm"
          maxW="64"
          placeholder={t('prompts.search')}
          aria-label={t('prompts.search')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          data-testid="prompts-search"
        />
        <Button size="sm" colorPalette="teal" onClick={() => setEditing(null)} data-testid="prompts-add">
          <MdAdd />
          {t('prompts.add')}
        </Button>
      </Flex>
      <Box bg="bg" borderRadius="md" borderWidth="1px" overflowX="auto">
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
                  <HStack justify="center" gap="1">
                    <IconButton size="xs" variant="ghost" aria-label={t('common.edit')} onClick={() => setEditing(p)} data-testid="prompt-edit">
                      <MdEdit />
                    </IconButton>
                    <IconButton size="xs" variant="ghost" colorPalette="red" aria-label={t('common.delete')} onClick={() => setDeleting(p)} data-testid="prompt-delete">
                      <MdDelete />
                    </IconButton>
                  </HStack>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
        <ListFooter query={list} count={prompts.length} moreTestId="prompts-more" />
      </Box>
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
