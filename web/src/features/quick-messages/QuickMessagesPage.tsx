import { Box, Button, Flex, Heading, HStack, IconButton, Input, Table } from '@chakra-ui/react';
import type { QuickMessageDto } from '@wa/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdAdd, MdDelete, MdEdit } from 'react-icons/md';
import { ListFooter } from '../../components/ListFooter';
import { notify } from '../../app/notify';
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
  const [deleting, setDeleting] = useState<QuickMessageDto | null>(null);
  const [remove, removing] = useDeleteQuickMessageMutation();

  async function confirmDelete() {
    if (!deleting) return;
    try {
      await remove(deleting.id).unwrap();
      notify.success(t('quickMessages.deleted'));
      setDeleting(null);
    } catch (err) {
      notify.error(err);
    }
  }

  return (
    <Box p="4" h="full" overflowY="auto" data-testid="quick-messages-page">
      <Flex gap="3" mb="3" align="center" wrap="wrap">
        <Heading size="lg" flex="1">
          {t('quickMessages.title')}
        </Heading>
        <Input size="sm" maxW="64" placeholder={t('contacts.search')} value={search} onChange={(e) => setSearch(e.target.value)} data-testid="quick-messages-search" />
        <Button size="sm" colorPalette="teal" onClick={() => setEditing(null)} data-testid="quick-message-add">
          <MdAdd />
          {t('quickMessages.add')}
        </Button>
      </Flex>
      <Box bg="bg" borderRadius="md" borderWidth="1px" overflowX="auto">
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
                  <HStack justify="center" gap="1">
                    <IconButton size="xs" variant="ghost" aria-label={t('common.edit')} onClick={() => setEditing(r)} data-testid="quick-message-edit">
                      <MdEdit />
                    </IconButton>
                    <IconButton size="xs" variant="ghost" colorPalette="red" aria-label={t('common.delete')} onClick={() => setDeleting(r)} data-testid="quick-message-delete">
                      <MdDelete />
                    </IconButton>
                  </HStack>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
        <ListFooter query={list} count={records.length} />
      </Box>
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
