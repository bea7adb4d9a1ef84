import { Badge, Box, Table, Text, Wrap } from '@chakra-ui/react';
import type { FileListDto } from '@wa/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router-dom';
import { ListFooter } from '../../components/ListFooter';
import { ListPageHeader, RowActions, useConfirmedDelete, useScrollPaging } from '../../app/list-page';
import { notify } from '../../app/notify';
import { selectIsAdmin } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { SEARCH_DEBOUNCE_MS, useDebounced } from '../../app/use-debounced';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FileListDialog } from './FileListDialog';
import { FileOptionDownload } from './FileOptionDownload';
import { useDeleteFileListMutation, useListFileListsInfiniteQuery } from './files.api';

/**
 * /files (spec 02 "Files"), an admin screen (the menu's administration group): the company's file lists as a
 * searchable table loaded page after page as it scrolls (name, message, the options with their files to
 * download), with add, edit, and delete behind a confirmation. Live changes arrive through
 * `company-<id>-files` (use-socket-cache-sync).
 */
export default function FilesPage() {
  const { t } = useTranslation();
  const isAdmin = useAppSelector(selectIsAdmin);
  const [search, setSearch] = useState('');
  const searchParam = useDebounced(search.trim(), SEARCH_DEBOUNCE_MS);
  const list = useListFileListsInfiniteQuery(searchParam, { skip: !isAdmin });
  const { isError } = list;
  const files = list.data?.pages.flatMap((p) => p.files ?? []) ?? [];
  const count = list.data?.pages[0]?.count ?? files.length;
  const [editing, setEditing] = useState<FileListDto | null | undefined>(undefined);
  const [remove, removing] = useDeleteFileListMutation();
  // spec 02 §8: a refused delete says 'Não foi possível realizar a operação.' (useConfirmedDelete toasts a thrown text as is)
  const removeWithMessage = (id: number) => ({
    unwrap: () =>
      remove(id)
        .unwrap()
        .catch(() => {
          throw t('files.toasts.deleteFailed');
        }),
  });
  const { deleting, setDeleting, confirm: confirmDelete } = useConfirmedDelete<FileListDto>(removeWithMessage, t('files.toasts.deleted'));
  const paging = useScrollPaging(list, files.length);

  // spec 02 §8: a list that cannot be loaded says so
  useEffect(() => {
    if (isError) notify.errorText(t('files.toasts.loadFailed'));
  }, [isError, t]);

  // the file lists are an admin screen (spec 01 §2 "admin group")
  if (!isAdmin) return <Navigate to="/tickets" replace />;

  return (
    <Box p={{ base: '3', md: '6' }} h="full" display="flex" flexDirection="column" data-testid="files-page">
      <ListPageHeader
        title={t('files.title')}
        count={count}
        search={search}
        onSearch={setSearch}
        searchLabel={t('files.search')}
        addLabel={t('files.add')}
        onAdd={() => setEditing(null)}
        testId="files"
      />
      <Box
        ref={paging.ref}
        flex="0 1 auto"
        minH="0"
        overflowY="auto"
        bg="bg"
        borderRadius="md"
        borderWidth="1px"
        onScroll={paging.onScroll}
        data-testid="files-list"
      >
        <Table.Root size="sm" stickyHeader data-testid="files-table">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>{t('files.columns.name')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('files.columns.message')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('files.columns.options')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="center">{t('files.columns.actions')}</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {files.map((f) => (
              <Table.Row key={f.id} data-testid="file-list-row" data-file-list-id={f.id}>
                <Table.Cell fontWeight="medium" data-testid="file-list-name-cell">
                  {f.name}
                </Table.Cell>
                <Table.Cell maxW="sm" data-testid="file-list-message-cell">
                  <Text lineClamp={2} title={f.message}>
                    {f.message}
                  </Text>
                </Table.Cell>
                <Table.Cell data-testid="file-list-options-cell">
                  {f.options.length === 0 ? (
                    <Text as="span" color="fg.muted">
                      —
                    </Text>
                  ) : (
                    <Wrap gap="1.5">
                      {f.options.map((o) =>
                        o.file ? (
                          <FileOptionDownload key={o.id} url={o.file} label={o.name} testId="file-list-option-download" />
                        ) : (
                          <Badge key={o.id} variant="outline" title={t('files.noFile')} data-testid="file-list-option">
                            {o.name}
                          </Badge>
                        ),
                      )}
                    </Wrap>
                  )}
                </Table.Cell>
                <Table.Cell textAlign="center">
                  <RowActions onEdit={() => setEditing(f)} onDelete={() => setDeleting(f)} testId="file-list" />
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
        <ListFooter query={list} count={files.length} />
      </Box>
      {editing !== undefined && <FileListDialog key={editing?.id ?? 'new'} fileList={editing} onClose={() => setEditing(undefined)} />}
      <ConfirmDialog
        open={!!deleting}
        title={t('files.confirm.deleteTitle', { name: deleting?.name ?? '' })}
        message={t('files.confirm.deleteMessage')}
        busy={removing.isLoading}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </Box>
  );
}
