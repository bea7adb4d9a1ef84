import { Box, Center, HStack, Spinner, Table, Text } from '@chakra-ui/react';
import type { QueueDto } from '@wa/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router-dom';
import { errorText } from '../../app/errors';
import { ListPageHeader, RowActions, useConfirmedDelete } from '../../app/list-page';
import { selectIsAdmin } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { QueueDialog } from './QueueDialog';
import { useDeleteQueueMutation, useListQueuesQuery } from './queues.api';

/**
 * /queues (spec 02 §2 "Queues"): the company's queues (admins only), add, edit and delete with confirmation.
 * Live changes arrive through `company-<id>-queue` (use-socket-cache-sync).
 */
export default function QueuesPage() {
  const { t } = useTranslation();
  const isAdmin = useAppSelector(selectIsAdmin);
  const { data: queues = [], isLoading, isError, error } = useListQueuesQuery(undefined, { skip: !isAdmin });
  const [editing, setEditing] = useState<QueueDto | null | undefined>(undefined);
  const [remove, removing] = useDeleteQueueMutation();
  const { deleting, setDeleting, confirm: confirmDelete } = useConfirmedDelete<QueueDto>(remove, t('queues.toasts.deleted'));

  // the queues are an admin screen (spec 01 §2 "admin group")
  if (!isAdmin) return <Navigate to="/tickets" replace />;

  return (
    <Box p={{ base: '3', md: '6' }} data-testid="queues-page">
      <ListPageHeader
        title={t('queues.title')}
        count={queues.length}
        addLabel={t('queues.add')}
        onAdd={() => setEditing(null)}
        testId="queues"
      />
      <Box bg="bg" borderRadius="md" borderWidth="1px" overflowX="auto">
        <Table.Root size="sm" data-testid="queues-table">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>{t('queues.columns.name')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('queues.columns.color')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="center">{t('queues.columns.orderQueue')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('queues.columns.greetingMessage')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="center">{t('queues.columns.actions')}</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {queues.map((q) => (
              <Table.Row key={q.id} data-testid={`queue-row-${q.id}`} data-queue-id={q.id}>
                <Table.Cell fontWeight="medium">{q.name}</Table.Cell>
                <Table.Cell>
                  <HStack gap="2">
                    <Box
                      w="4"
                      h="4"
                      borderRadius="sm"
                      borderWidth="1px"
                      flexShrink={0}
                      style={{ background: q.color }}
                      data-testid="queue-color-swatch"
                    />
                    <Text as="span" textStyle="xs" fontFamily="mono">
                      {q.color}
                    </Text>
                  </HStack>
                </Table.Cell>
                <Table.Cell textAlign="center">{q.orderQueue ?? '—'}</Table.Cell>
                <Table.Cell>
                  <Text
                    truncate
                    maxW={{ base: '40', md: 'xs' }}
                    title={q.greetingMessage || undefined}
                    color={q.greetingMessage ? undefined : 'fg.muted'}
                  >
                    {q.greetingMessage || '—'}
                  </Text>
                </Table.Cell>
                <Table.Cell textAlign="center">
                  <RowActions onEdit={() => setEditing(q)} onDelete={() => setDeleting(q)} testId="queue" />
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
        {isLoading && (
          <Center py="8">
            <Spinner />
          </Center>
        )}
        {isError && (
          <Center py="8" color="fg.error">
            {errorText(error)}
          </Center>
        )}
        {!isLoading && !isError && queues.length === 0 && (
          <Center py="8" color="fg.muted" data-testid="queues-empty">
            {t('common.noRecords')}
          </Center>
        )}
      </Box>
      {editing !== undefined && <QueueDialog key={editing?.id ?? 'new'} queue={editing} onClose={() => setEditing(undefined)} />}
      <ConfirmDialog
        open={!!deleting}
        title={t('queues.confirm.deleteTitle', { name: deleting?.name ?? '' })}
        message={t('queues.confirm.deleteMessage')}
        busy={removing.isLoading}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </Box>
  );
}
