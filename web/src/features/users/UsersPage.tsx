import { Badge, Box, HStack, Table, Text } from '@chakra-ui/react';
import type { UserDto } from '@wa/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListPageHeader, ListTableBox, RowActions, useConfirmedDelete, useScrollPaging } from '../../app/list-page';
import { ListFooter } from '../../components/ListFooter';
import { selectUser } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { SEARCH_DEBOUNCE_MS, useDebounced } from '../../app/use-debounced';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useListQueuesQuery } from '../tickets/tickets.api';
import { UserDialog } from './UserDialog';
import { canAddUser, queueBadges, userRowActions, viewerOfUser } from './user-rules';
import { useDeleteUserMutation, useListUsersInfiniteQuery } from './users.api';

/** /users (spec 01 §2, spec 02 §2): searchable, paged table of the company's users; add, edit and delete (with confirmation). */
export default function UsersPage() {
  const { t } = useTranslation();
  const viewer = viewerOfUser(useAppSelector(selectUser));
  const [search, setSearch] = useState('');
  const searchParam = useDebounced(search.trim(), SEARCH_DEBOUNCE_MS);
  const list = useListUsersInfiniteQuery(searchParam);
  const users = list.data?.pages.flatMap((p) => p.users) ?? [];
  const paging = useScrollPaging(list, users.length);
  const { data: queues = [] } = useListQueuesQuery();
  const [editing, setEditing] = useState<UserDto | null | undefined>(undefined);
  const [remove, removing] = useDeleteUserMutation();
  const { deleting, setDeleting, confirm: confirmDelete } = useConfirmedDelete<UserDto>(remove, t('users.toasts.deleted'));

  return (
    <Box p={{ base: '3', md: '6' }} h="full" display="flex" flexDirection="column" data-testid="users-page">
      <ListPageHeader
        title={t('users.title')}
        search={search}
        onSearch={setSearch}
        searchLabel={t('users.search')}
        addLabel={t('users.add')}
        onAdd={canAddUser(viewer) ? () => setEditing(null) : undefined}
        testId="users"
      />
      <ListTableBox paging={paging} testId="users-list">
        <Table.Root size="sm" data-testid="users-table">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>{t('users.columns.name')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('users.columns.email')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('users.columns.profile')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('users.columns.queues')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="center">{t('users.columns.actions')}</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {users.map((u) => {
              const actions = userRowActions(viewer, u);
              const badges = queueBadges(u.queueIds ?? u.queues.map((q) => q.id), queues);
              return (
                <Table.Row key={u.id} data-testid="user-row" data-user-id={u.id}>
                  <Table.Cell fontWeight="medium">
                    {u.name}
                    {u.id === viewer.id && (
                      <Text as="span" color="fg.muted" fontWeight="normal" ms="1">
                        {t('users.you')}
                      </Text>
                    )}
                  </Table.Cell>
                  <Table.Cell>{u.email}</Table.Cell>
                  <Table.Cell data-testid="user-profile-cell">{t(`users.profiles.${u.profile}`)}</Table.Cell>
                  <Table.Cell data-testid="user-queues-cell">
                    {badges.length === 0 ? (
                      <Text as="span" color="fg.muted">
                        {t('users.noQueues')}
                      </Text>
                    ) : (
                      <HStack gap="1" wrap="wrap">
                        {badges.map((q) => (
                          <Badge key={q.id} size="sm" variant="subtle" style={q.color ? { borderLeft: `3px solid ${q.color}` } : undefined}>
                            {q.name}
                          </Badge>
                        ))}
                      </HStack>
                    )}
                  </Table.Cell>
                  <Table.Cell textAlign="center">
                    <RowActions
                      onEdit={actions.edit ? () => setEditing(u) : undefined}
                      onDelete={actions.delete ? () => setDeleting(u) : undefined}
                      testId="user"
                    />
                  </Table.Cell>
                </Table.Row>
              );
            })}
          </Table.Body>
        </Table.Root>
        <ListFooter query={list} count={users.length} />
      </ListTableBox>
      {editing !== undefined && <UserDialog user={editing} onClose={() => setEditing(undefined)} />}
      <ConfirmDialog
        open={!!deleting}
        title={t('users.confirm.deleteTitle', { name: deleting?.name ?? '' })}
        message={t('users.confirm.deleteMessage')}
        busy={removing.isLoading}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </Box>
  );
}
