import { Badge, Box, Table, Text } from '@chakra-ui/react';
import type { AnnouncementDto } from '@wa/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdAttachFile } from 'react-icons/md';
import { ListFooter } from '../../components/ListFooter';
import { ListPageHeader, ListTableBox, RowActions, useConfirmedDelete, useScrollPaging } from '../../app/list-page';
import { notify } from '../../app/notify';
import { PermissionGate } from '../../app/PermissionGate';
import { selectUser } from '../../app/session';
import { useAppSelector, type RootState } from '../../app/store';
import { SEARCH_DEBOUNCE_MS, useDebounced } from '../../app/use-debounced';
import { authApi } from '../../app/auth.api';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { priorityColor, priorityName, superAccess } from './announcement-rules';
import { AnnouncementDialog } from './AnnouncementDialog';
import { useDeleteAnnouncementMutation, useListAnnouncementsInfiniteQuery } from './announcements.api';

const selectMe = authApi.endpoints.me.select();

/** Super users only: a "no" from the user as last stored waits for /auth/me (as the plan-gated pages do). */
function useSuperAllowed(): boolean | null {
  const user = useAppSelector(selectUser);
  const fresh = useAppSelector((s) => s.session.userFresh);
  const meFailed = useAppSelector((s: RootState) => selectMe(s).isError);
  return superAccess(user, fresh || meFailed);
}

/**
 * /announcements (spec 02 "Announcements"), super users only (others get 'Esta empresa não possui permissão
 * para acessar essa página! Estamos lhe redirecionando.' and go to / after 1 s): every announcement as a
 * searchable, paged table (title, priority in its colour, attachment, status), with add, edit and delete
 * behind a confirmation. Everyone reads the active ones in the top bar's popover.
 */
export default function AnnouncementsPage() {
  return (
    <PermissionGate allowed={useSuperAllowed()}>
      <Announcements />
    </PermissionGate>
  );
}

function Announcements() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const searchParam = useDebounced(search.trim(), SEARCH_DEBOUNCE_MS);
  const list = useListAnnouncementsInfiniteQuery(searchParam);
  const announcements = list.data?.pages.flatMap((p) => p.records ?? []) ?? [];
  const paging = useScrollPaging(list, announcements.length);
  const count = list.data?.pages[0]?.count ?? announcements.length;
  const [editing, setEditing] = useState<AnnouncementDto | null | undefined>(undefined);
  const [remove, removing] = useDeleteAnnouncementMutation();
  // spec 02: a refused delete says 'Não foi possível realizar a operação.' (useConfirmedDelete toasts a text as is)
  const removeWithMessage = (id: number) => ({
    unwrap: () =>
      remove(id)
        .unwrap()
        .catch(() => {
          throw t('announcements.toasts.deleteFailed');
        }),
  });
  const {
    deleting,
    setDeleting,
    confirm: confirmDelete,
  } = useConfirmedDelete<AnnouncementDto>(removeWithMessage, t('announcements.toasts.deleted'));

  // spec 02: 'Não foi possível carregar a lista de registros'
  useEffect(() => {
    if (list.isError) notify.errorText(t('announcements.loadFailed'));
  }, [list.isError, t]);

  return (
    <Box p={{ base: '3', md: '6' }} h="full" display="flex" flexDirection="column" data-testid="announcements-page">
      <ListPageHeader
        title={t('announcements.title')}
        count={count}
        search={search}
        onSearch={setSearch}
        searchLabel={t('announcements.search')}
        addLabel={t('announcements.add')}
        onAdd={() => setEditing(null)}
        testId="announcements"
      />
      <ListTableBox paging={paging} testId="announcements-list">
        <Table.Root size="sm" data-testid="announcements-table">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>{t('announcements.columns.title')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="center">{t('announcements.columns.priority')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('announcements.columns.attachment')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="center">{t('announcements.columns.status')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="center">{t('announcements.columns.actions')}</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {announcements.map((a) => (
              <Table.Row key={a.id} data-testid="announcement-row" data-id={a.id}>
                <Table.Cell fontWeight="medium" maxW="md" data-testid="announcement-title-cell">
                  <Text truncate title={a.title}>
                    {a.title}
                  </Text>
                </Table.Cell>
                <Table.Cell textAlign="center">
                  <Badge
                    colorPalette={priorityColor(a.priority)}
                    variant="solid"
                    data-testid="announcement-priority-cell"
                    data-priority={a.priority}
                    data-color={priorityColor(a.priority)}
                  >
                    {t(`announcements.priorities.${priorityName(a.priority)}`)}
                  </Badge>
                </Table.Cell>
                <Table.Cell data-testid="announcement-attachment-cell">
                  {a.mediaName ? (
                    <Text as="span" display="inline-flex" alignItems="center" gap="1" truncate title={a.mediaName}>
                      <MdAttachFile aria-hidden />
                      {a.mediaName}
                    </Text>
                  ) : (
                    <Box as="span" color="fg.muted">
                      —
                    </Box>
                  )}
                </Table.Cell>
                <Table.Cell textAlign="center">
                  <Badge
                    colorPalette={a.status ? 'green' : 'gray'}
                    data-testid="announcement-status-cell"
                    data-status={a.status ? 'active' : 'inactive'}
                  >
                    {a.status ? t('announcements.statuses.active') : t('announcements.statuses.inactive')}
                  </Badge>
                </Table.Cell>
                <Table.Cell textAlign="center">
                  <RowActions onEdit={() => setEditing(a)} onDelete={() => setDeleting(a)} testId="announcement" />
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
        <ListFooter query={{ ...list, error: t('announcements.loadFailed') }} count={announcements.length} />
      </ListTableBox>
      {editing !== undefined && (
        <AnnouncementDialog key={editing?.id ?? 'new'} announcement={editing} onClose={() => setEditing(undefined)} />
      )}
      <ConfirmDialog
        open={!!deleting}
        title={t('announcements.confirm.deleteTitle', { title: deleting?.title ?? '' })}
        message={t('announcements.confirm.deleteMessage')}
        busy={removing.isLoading}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </Box>
  );
}
