import { Box, Icon, Table } from '@chakra-ui/react';
import type { QueueIntegrationDto } from '@wa/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { IconType } from 'react-icons';
import { MdAccountTree, MdForum, MdSmartToy, MdWebhook } from 'react-icons/md';
import { Navigate } from 'react-router-dom';
import { ListFooter } from '../../components/ListFooter';
import { ListPageHeader, ListTableBox, RowActions, useConfirmedDelete, useScrollPaging } from '../../app/list-page';
import { PlanGate } from '../../app/PermissionGate';
import { selectIsAdmin } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { SEARCH_DEBOUNCE_MS, useDebounced } from '../../app/use-debounced';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import type { IntegrationType } from './integration-rules';
import { QueueIntegrationDialog } from './QueueIntegrationDialog';
import { useDeleteQueueIntegrationMutation, useListQueueIntegrationsInfiniteQuery } from './queue-integrations.api';

/** The icon of each type in the list: a conversation for Dialogflow, a flow for n8n, a hook, a bot for Typebot. */
const TYPE_ICONS: Record<IntegrationType, IconType> = {
  dialogflow: MdForum,
  n8n: MdAccountTree,
  webhook: MdWebhook,
  typebot: MdSmartToy,
};

/**
 * /queue-integration (spec 02 §2 "Queue integrations", §6): the company's outside flows (dialogflow, n8n,
 * webhook, typebot), for admins whose plan has useIntegrations (others get the permission notice and go to /
 * after 1 s): a searchable, paged table (type icon, id, name), add, edit and delete with confirmation.
 */
export default function QueueIntegrationsPage() {
  const isAdmin = useAppSelector(selectIsAdmin);
  // an admin screen (spec 01 §2 "admin group")
  if (!isAdmin) return <Navigate to="/tickets" replace />;
  return (
    <PlanGate flag="useIntegrations">
      <QueueIntegrations />
    </PlanGate>
  );
}

function QueueIntegrations() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const searchParam = useDebounced(search.trim(), SEARCH_DEBOUNCE_MS);
  const list = useListQueueIntegrationsInfiniteQuery(searchParam);
  const integrations = list.data?.pages.flatMap((p) => p.queueIntegrations) ?? [];
  const paging = useScrollPaging(list, integrations.length);
  const count = list.data?.pages[0]?.count ?? integrations.length;
  const [editing, setEditing] = useState<QueueIntegrationDto | null | undefined>(undefined);
  const [remove, removing] = useDeleteQueueIntegrationMutation();
  const {
    deleting,
    setDeleting,
    confirm: confirmDelete,
  } = useConfirmedDelete<QueueIntegrationDto>(remove, t('queueIntegrations.toasts.deleted'));

  return (
    <Box p={{ base: '3', md: '6' }} h="full" display="flex" flexDirection="column" data-testid="integrations-page">
      <ListPageHeader
        title={t('queueIntegrations.title')}
        count={count}
        search={search}
        onSearch={setSearch}
        searchLabel={t('queueIntegrations.search')}
        addLabel={t('queueIntegrations.add')}
        onAdd={() => setEditing(null)}
        testId="integrations"
      />
      <ListTableBox paging={paging} testId="integrations-list">
        <Table.Root size="sm" data-testid="integrations-table">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader w="16" textAlign="center">
                {t('queueIntegrations.columns.type')}
              </Table.ColumnHeader>
              <Table.ColumnHeader w="20" textAlign="center">
                {t('queueIntegrations.columns.id')}
              </Table.ColumnHeader>
              <Table.ColumnHeader>{t('queueIntegrations.columns.name')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="center">{t('queueIntegrations.columns.actions')}</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {integrations.map((i) => {
              const typeLabel = t(`queueIntegrations.types.${i.type}`);
              return (
                <Table.Row key={i.id} data-testid={`integration-row-${i.id}`} data-integration-id={i.id} data-type={i.type}>
                  <Table.Cell textAlign="center" title={typeLabel} data-testid="integration-type-cell">
                    <Icon
                      as={TYPE_ICONS[i.type] ?? MdWebhook}
                      boxSize="5"
                      color="teal.fg"
                      role="img"
                      aria-hidden={false}
                      aria-label={typeLabel}
                      verticalAlign="middle"
                    />
                  </Table.Cell>
                  <Table.Cell textAlign="center" data-testid="integration-id-cell">
                    {i.id}
                  </Table.Cell>
                  <Table.Cell fontWeight="medium" data-testid="integration-name-cell">
                    {i.name}
                  </Table.Cell>
                  <Table.Cell textAlign="center">
                    <RowActions onEdit={() => setEditing(i)} onDelete={() => setDeleting(i)} testId="integration" />
                  </Table.Cell>
                </Table.Row>
              );
            })}
          </Table.Body>
        </Table.Root>
        <ListFooter query={list} count={integrations.length} />
      </ListTableBox>
      {editing !== undefined && (
        <QueueIntegrationDialog key={editing?.id ?? 'new'} integration={editing} onClose={() => setEditing(undefined)} />
      )}
      <ConfirmDialog
        open={!!deleting}
        title={t('queueIntegrations.confirm.deleteTitle', { name: deleting?.name ?? '' })}
        message={t('queueIntegrations.confirm.deleteMessage')}
        busy={removing.isLoading}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </Box>
  );
}
