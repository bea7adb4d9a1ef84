import { Box, Button, Flex, Heading, Input, Table } from '@chakra-ui/react';
import type { QuickMessageDto } from '@wa/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdAdd } from 'react-icons/md';
import { ListTableBox, RowActions, useConfirmedDelete, useScrollPaging } from '../../app/list-page';
import { ListFooter } from '../../components/ListFooter';
import { SEARCH_DEBOUNCE_MS, useDebounced } from '../../app/use-debounced';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useDeleteQuickMessageMutation, useListQuickMessagesInfiniteQuery } from './quick-messages.api';
import { QuickMessageDialog } from './QuickMessageDialog';

/** /quick-messages (spec 02 §2): searchable table of shortcodes and attachments, add, edit, delete with confirmation. */
export default function QuickMessagesPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const searchParam = useDebounced(search.trim(), SEARCH_DEBOUNCE_MS);
  const list = useListQuickMessagesInfiniteQuery(searchParam);
  const records = list.data?.pages.flatMap((p) => p.records) ?? [];
  const [editing, setEditing] = useState<QuickMessageDto | null | undefined>(undefined);
  const paging = useScrollPaging(list, records.length);
  const [remove, removing] = useDeleteQuickMessageMutation();
  const { deleting, setDeleting, confirm: confirmDelete } = useConfirmedDelete<QuickMessageDto>(remove, t('quickMessages.deleted'));

  return (
    <Box p="4" h="full" display="flex" flexDirection="column" data-testid="quick-messages-page">
      <Flex gap="3" mb="3" align="center" wrap="wrap">
        <Heading size="lg" flex="1">
          {t('quickMessages.title')}
        </Heading>
        <Input
          size="sm"
          maxW="64"
          placeholder={t('contacts.search')}
          aria-label={t('contacts.search')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          data-testid="quick-messages-search"
        />
        <Button size="sm" colorPalette="teal" onClick={() => setEditing(null)} data-testid="quick-message-add">
          <MdAdd />
          {t('quickMessages.add')}
        </Button>
      </Flex>
      <ListTableBox paging={paging} testId="quick-messages-list">
        <Table.Root size="sm" data-testid="quick-messages-table">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>{t('quickMessages.shortcode')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('quickMessages.attachment')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="center">{t('contacts.columns.actions')}</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {records.map((r) => (
              <Table.Row key={r.id} data-testid="quick-message-row" data-quick-message-id={r.id}>
                <Table.Cell fontWeight="medium">{r.shortcode}</Table.Cell>
                <Table.Cell color={r.mediaName ? undefined : 'fg.muted'}>{r.mediaName ?? t('quickMessages.noAttachment')}</Table.Cell>
                <Table.Cell textAlign="center">
                  <RowActions onEdit={() => setEditing(r)} onDelete={() => setDeleting(r)} testId="quick-message" />
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
        <ListFooter query={list} count={records.length} />
      </ListTableBox>
      {editing !== undefined && <QuickMessageDialog record={editing} onClose={() => setEditing(undefined)} />}
      <ConfirmDialog
        open={!!deleting}
        title={t('quickMessages.deleteTitle', { shortcode: deleting?.shortcode ?? '' })}
        message={t('quickMessages.deleteMessage')}
        busy={removing.isLoading}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </Box>
  );
}
