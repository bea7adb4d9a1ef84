import { HStack, IconButton, Table } from '@chakra-ui/react';
import type { CampaignDto } from '@wa/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdAssessment, MdPlayArrow, MdStop } from 'react-icons/md';
import { useNavigate } from 'react-router-dom';
import { ListPageHeader, ListTableBox, RowActions, useScrollPaging } from '../../app/list-page';
import { SEARCH_DEBOUNCE_MS, useDebounced } from '../../app/use-debounced';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ListFooter } from '../../components/ListFooter';
import {
  useCancelCampaignMutation,
  useDeleteCampaignMutation,
  useListCampaignsInfiniteQuery,
  useRestartCampaignMutation,
} from './campaigns.api';
import { CampaignDialog } from './CampaignDialog';
import { CampaignPageBox, withCampaignsGate } from './CampaignsGate';
import { campaignNotify, CampaignStatusText, dateTimeText, useCampaignDelete } from './ui';

/** /campaigns (spec 02 §2): the campaigns with status, list, connection, dates; stop, restart, report, edit, delete. */
function CampaignsPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const searchParam = useDebounced(search.trim(), SEARCH_DEBOUNCE_MS);
  const list = useListCampaignsInfiniteQuery(searchParam);
  const records = list.data?.pages.flatMap((p) => p.records) ?? [];
  const paging = useScrollPaging(list, records.length);
  const [editing, setEditing] = useState<CampaignDto | null | undefined>(undefined);
  const [remove, removing] = useDeleteCampaignMutation();
  const { deleting, setDeleting, confirm: confirmDelete } = useCampaignDelete<CampaignDto>(remove, t('campaigns.deleted'));
  const [cancel] = useCancelCampaignMutation();
  const [restart] = useRestartCampaignMutation();

  /** spec 02 §8: a failed stop or restart shows the error's message. */
  async function run(call: { unwrap(): Promise<unknown> }, done: string) {
    try {
      await call.unwrap();
      campaignNotify.success(done);
    } catch (err) {
      campaignNotify.error(err);
    }
  }

  return (
    <CampaignPageBox data-testid="campaigns-page">
      <ListPageHeader
        title={t('campaigns.title')}
        count={list.data?.pages[0]?.count}
        search={search}
        onSearch={setSearch}
        searchLabel={t('campaigns.search')}
        addLabel={t('campaigns.add')}
        onAdd={() => setEditing(null)}
        testId="campaigns"
      />
      <ListTableBox paging={paging} testId="campaigns-list">
        <Table.Root size="sm">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>{t('campaigns.name')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('campaigns.status')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('campaigns.contactList')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('campaigns.connection')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('campaigns.scheduledAt')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('campaigns.completedAt')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="center">{t('contacts.columns.actions')}</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {records.map((c) => (
              <Table.Row key={c.id} data-testid="campaign-row" data-campaign-id={c.id}>
                <Table.Cell fontWeight="medium">{c.name}</Table.Cell>
                <Table.Cell>
                  <CampaignStatusText campaign={c} />
                </Table.Cell>
                <Table.Cell>{c.contactList?.name ?? t('campaigns.none')}</Table.Cell>
                <Table.Cell>{c.whatsapp?.name ?? t('campaigns.none')}</Table.Cell>
                <Table.Cell>{dateTimeText(c.scheduledAt, i18n.language) || t('campaigns.noSchedule')}</Table.Cell>
                <Table.Cell>{dateTimeText(c.completedAt, i18n.language) || t('campaigns.notCompleted')}</Table.Cell>
                <Table.Cell>
                  <HStack justify="center" gap="1">
                    {c.status === 'EM_ANDAMENTO' && (
                      <IconButton
                        size="xs"
                        variant="ghost"
                        aria-label={t('campaigns.stop')}
                        title={t('campaigns.stop')}
                        onClick={() => void run(cancel(c.id), t('campaigns.stopped'))}
                        data-testid="campaign-stop"
                      >
                        <MdStop />
                      </IconButton>
                    )}
                    {c.status === 'CANCELADA' && (
                      <IconButton
                        size="xs"
                        variant="ghost"
                        aria-label={t('campaigns.restart')}
                        title={t('campaigns.restart')}
                        onClick={() => void run(restart(c.id), t('campaigns.restarted'))}
                        data-testid="campaign-restart"
                      >
                        <MdPlayArrow />
                      </IconButton>
                    )}
                    <IconButton
                      size="xs"
                      variant="ghost"
                      aria-label={t('campaigns.report')}
                      title={t('campaigns.report')}
                      onClick={() => navigate(`/campaign/${c.id}/report`)}
                      data-testid="campaign-report"
                    >
                      <MdAssessment />
                    </IconButton>
                    <RowActions onEdit={() => setEditing(c)} onDelete={() => setDeleting(c)} testId="campaign" />
                  </HStack>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
        <ListFooter query={list} count={records.length} />
      </ListTableBox>
      {editing !== undefined && <CampaignDialog record={editing} onClose={() => setEditing(undefined)} />}
      <ConfirmDialog
        open={!!deleting}
        title={t('campaigns.deleteTitle', { name: deleting?.name ?? '' })}
        message={t('campaigns.deleteMessage')}
        busy={removing.isLoading}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </CampaignPageBox>
  );
}

export default withCampaignsGate(CampaignsPage);
