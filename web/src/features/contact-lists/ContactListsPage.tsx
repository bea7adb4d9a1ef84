import { HStack, IconButton, Table } from '@chakra-ui/react';
import type { ContactListDto } from '@wa/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdDownload, MdPeople } from 'react-icons/md';
import { useNavigate } from 'react-router-dom';
import { ListPageHeader, ListTableBox, RowActions, useScrollPaging } from '../../app/list-page';
import { SEARCH_DEBOUNCE_MS, useDebounced } from '../../app/use-debounced';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ListFooter } from '../../components/ListFooter';
import { useEntityDialog } from '../../components/use-entity-dialog';
import { CampaignPageBox, withCampaignsGate } from '../campaigns/CampaignsGate';
import { campaignNotify, FormDialog, TextField, useCampaignDelete } from '../campaigns/ui';
import { validateContactList } from './contact-list-rules';
import { downloadExample } from './download-example';
import { useDeleteContactListMutation, useListContactListsInfiniteQuery, useSaveContactListMutation } from './contact-lists.api';

/** /contact-lists (spec 02 §2): the lists with their counts, search, add, edit, delete, the example spreadsheet, a list's contacts. */
function ContactListsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const searchParam = useDebounced(search.trim(), SEARCH_DEBOUNCE_MS);
  const list = useListContactListsInfiniteQuery(searchParam);
  const records = list.data?.pages.flatMap((p) => p.records) ?? [];
  const paging = useScrollPaging(list, records.length);
  const [editing, setEditing] = useState<ContactListDto | null | undefined>(undefined);
  const [remove, removing] = useDeleteContactListMutation();
  const { deleting, setDeleting, confirm } = useCampaignDelete<ContactListDto>(remove, t('contactLists.deleted'));

  return (
    <CampaignPageBox data-testid="contact-lists-page">
      <ListPageHeader
        title={t('contactLists.title')}
        count={list.data?.pages[0]?.count}
        search={search}
        onSearch={setSearch}
        searchLabel={t('contactLists.search')}
        addLabel={t('contactLists.add')}
        onAdd={() => setEditing(null)}
        testId="contact-lists"
      >
        <IconButton
          size="sm"
          variant="outline"
          aria-label={t('contactLists.example')}
          title={t('contactLists.example')}
          onClick={downloadExample}
          data-testid="contact-lists-example"
        >
          <MdDownload />
        </IconButton>
      </ListPageHeader>
      <ListTableBox paging={paging} testId="contact-lists-list">
        <Table.Root size="sm">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>{t('contactLists.name')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="center">{t('contactLists.contacts')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="center">{t('contacts.columns.actions')}</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {records.map((r) => (
              <Table.Row key={r.id} data-testid="contact-list-row" data-contact-list-id={r.id}>
                <Table.Cell fontWeight="medium">{r.name}</Table.Cell>
                <Table.Cell textAlign="center" data-testid="contact-list-count">
                  {r.contactsCount}
                </Table.Cell>
                <Table.Cell>
                  <HStack justify="center" gap="1">
                    <IconButton
                      size="xs"
                      variant="ghost"
                      aria-label={t('contactLists.open')}
                      title={t('contactLists.open')}
                      onClick={() => navigate(`/contact-lists/${r.id}/contacts`)}
                      data-testid="contact-list-open"
                    >
                      <MdPeople />
                    </IconButton>
                    <RowActions onEdit={() => setEditing(r)} onDelete={() => setDeleting(r)} testId="contact-list" />
                  </HStack>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
        <ListFooter query={list} count={records.length} />
      </ListTableBox>
      {editing !== undefined && <ContactListDialog record={editing} onClose={() => setEditing(undefined)} />}
      <ConfirmDialog
        open={!!deleting}
        title={t('contactLists.deleteTitle', { name: deleting?.name ?? '' })}
        message={t('contactLists.deleteMessage')}
        busy={removing.isLoading}
        onConfirm={() => void confirm()}
        onClose={() => setDeleting(null)}
      />
    </CampaignPageBox>
  );
}

/** Add (null) or rename a list: name 2 to 50 (Too Short!, Too Long!, Required). */
function ContactListDialog({ record, onClose }: { record: ContactListDto | null; onClose(): void }) {
  const { t } = useTranslation();
  const [save, saving] = useSaveContactListMutation();
  const form = useEntityDialog({
    initial: () => ({ name: record?.name ?? '' }),
    validate: validateContactList,
    problemText: (_key, problem) => t(`validation.${problem}`),
  });
  const submit = form.handleSubmit(
    async (v) => {
      await save({ id: record?.id, name: v.name.trim() }).unwrap();
      campaignNotify.success(t('contactLists.saved'));
      onClose();
    },
    (err) => campaignNotify.error(err),
  );
  return (
    <FormDialog
      title={record ? t('contactLists.edit') : t('contactLists.add')}
      testId="contact-list-dialog"
      onSubmit={(e) => void submit(e)}
      onClose={onClose}
      busy={saving.isLoading}
    >
      <TextField
        label={t('contactLists.name')}
        required
        autoFocus
        value={form.values.name}
        onChange={(e) => form.set('name', e.target.value)}
        // an empty field left shows nothing yet: a problem appearing then would move the buttons under the pointer
        onBlur={() => form.values.name && form.touch('name')}
        error={form.errorOf('name')}
        testId="contact-list-name"
      />
    </FormDialog>
  );
}

export default withCampaignsGate(ContactListsPage);
