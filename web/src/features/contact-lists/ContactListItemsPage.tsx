import { Box, Button, HStack, Icon, IconButton, Table, Text } from '@chakra-ui/react';
import type { ContactListItemDto } from '@wa/contracts';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdArrowBack, MdCancel, MdCheckCircle, MdDownload, MdHelpOutline, MdUpload } from 'react-icons/md';
import { useNavigate, useParams } from 'react-router-dom';
import { ListPageHeader, ListTableBox, RowActions, useScrollPaging } from '../../app/list-page';
import { SEARCH_DEBOUNCE_MS, useDebounced } from '../../app/use-debounced';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ListFooter } from '../../components/ListFooter';
import { useEntityDialog } from '../../components/use-entity-dialog';
import { CampaignPageBox, withCampaignsGate } from '../campaigns/CampaignsGate';
import { campaignNotify, FormDialog, ProgressBar, TextField, useCampaignDelete } from '../campaigns/ui';
import { IMPORT_ACCEPT, importPercent, validateContactListItem, whatsappState, type ContactListItemValues } from './contact-list-rules';
import {
  useDeleteContactListItemMutation,
  useGetContactListQuery,
  useListContactListItemsInfiniteQuery,
  useSaveContactListItemMutation,
  useUploadContactListMutation,
} from './contact-lists.api';
import { downloadExample } from './download-example';
import { clearImportProgress, useImportProgress } from './import-progress';

const STATE_ICON = {
  valid: { icon: MdCheckCircle, color: 'green.solid' },
  invalid: { icon: MdCancel, color: 'red.solid' },
  unchecked: { icon: MdHelpOutline, color: 'fg.muted' },
} as const;

/** /contact-lists/:contactListId/contacts (spec 02 §2): a list's items with search, import, add, edit, delete and the WhatsApp check. */
function ContactListItemsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const contactListId = Number(useParams().contactListId);
  const { data: contactList } = useGetContactListQuery(contactListId);
  const [search, setSearch] = useState('');
  const searchParam = useDebounced(search.trim(), SEARCH_DEBOUNCE_MS);
  const list = useListContactListItemsInfiniteQuery({ contactListId, search: searchParam });
  const items = list.data?.pages.flatMap((p) => p.contacts) ?? [];
  const paging = useScrollPaging(list, items.length);
  const [editing, setEditing] = useState<ContactListItemDto | null | undefined>(undefined);
  const [remove, removing] = useDeleteContactListItemMutation();
  const { deleting, setDeleting, confirm } = useCampaignDelete<ContactListItemDto>(remove, t('contactLists.items.deleted'));
  const [upload, uploading] = useUploadContactListMutation();
  const progress = useImportProgress(contactListId);
  const fileInput = useRef<HTMLInputElement>(null);

  async function importFile(file: File | undefined) {
    if (!file) return;
    clearImportProgress(contactListId);
    try {
      await upload({ id: contactListId, file }).unwrap();
      campaignNotify.success(t('contactLists.items.importStarted'));
    } catch (err) {
      campaignNotify.error(err);
    }
  }

  return (
    <CampaignPageBox data-testid="contact-list-items-page">
      <ListPageHeader
        title={contactList ? `${t('contactLists.items.title')}: ${contactList.name}` : t('contactLists.items.title')}
        count={contactList?.contactsCount}
        search={search}
        onSearch={setSearch}
        searchLabel={t('contactLists.search')}
        addLabel={t('contactLists.items.add')}
        onAdd={() => setEditing(null)}
        testId="contact-list-items"
      >
        <Button size="sm" variant="outline" onClick={() => navigate('/contact-lists')} data-testid="contact-list-items-back">
          <MdArrowBack />
          {t('contactLists.items.back')}
        </Button>
        <IconButton
          size="sm"
          variant="outline"
          aria-label={t('contactLists.example')}
          title={t('contactLists.example')}
          onClick={downloadExample}
          data-testid="contact-list-items-example"
        >
          <MdDownload />
        </IconButton>
        <input
          ref={fileInput}
          type="file"
          hidden
          accept={IMPORT_ACCEPT}
          onChange={(e) => {
            void importFile(e.target.files?.[0]);
            e.target.value = '';
          }}
          data-testid="contact-list-items-file"
        />
        <Button
          size="sm"
          variant="outline"
          loading={uploading.isLoading}
          onClick={() => fileInput.current?.click()}
          data-testid="contact-list-items-import"
        >
          <MdUpload />
          {t('contactLists.items.import')}
        </Button>
      </ListPageHeader>
      {progress && (
        <Box mb="3" data-testid="contact-list-import" data-done={progress.done}>
          <ProgressBar value={importPercent(progress)} testId="contact-list-import-progress" />
          <Text textStyle="sm" mt="1" color={progress.error ? 'fg.error' : 'fg.muted'} data-testid="contact-list-import-counts">
            {progress.error ??
              t(progress.done ? 'contactLists.items.importDone' : 'contactLists.items.importRunning', {
                processed: progress.processed,
                total: progress.total,
                added: progress.added,
                duplicates: progress.duplicates,
                invalid: progress.invalid,
              })}
          </Text>
        </Box>
      )}
      <ListTableBox paging={paging} testId="contact-list-items-list">
        <Table.Root size="sm">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader w="10" />
              <Table.ColumnHeader>{t('contactLists.items.name')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('contactLists.items.number')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('contactLists.items.email')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="center">{t('contacts.columns.actions')}</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {items.map((item) => {
              const state = whatsappState(item.isWhatsappValid);
              return (
                <Table.Row key={item.id} data-testid="contact-list-item-row" data-item-id={item.id}>
                  <Table.Cell>
                    <Box
                      as="span"
                      display="inline-flex"
                      title={t(`contactLists.items.whatsapp.${state}`)}
                      aria-label={t(`contactLists.items.whatsapp.${state}`)}
                      data-testid="contact-list-item-whatsapp"
                      data-state={state}
                    >
                      <Icon as={STATE_ICON[state].icon} color={STATE_ICON[state].color} boxSize="5" />
                    </Box>
                  </Table.Cell>
                  <Table.Cell fontWeight="medium">{item.name}</Table.Cell>
                  <Table.Cell>{item.number}</Table.Cell>
                  <Table.Cell>{item.email}</Table.Cell>
                  <Table.Cell>
                    <HStack justify="center">
                      <RowActions onEdit={() => setEditing(item)} onDelete={() => setDeleting(item)} testId="contact-list-item" />
                    </HStack>
                  </Table.Cell>
                </Table.Row>
              );
            })}
          </Table.Body>
        </Table.Root>
        <ListFooter query={list} count={items.length} />
      </ListTableBox>
      {editing !== undefined && (
        <ContactListItemDialog record={editing} contactListId={contactListId} onClose={() => setEditing(undefined)} />
      )}
      <ConfirmDialog
        open={!!deleting}
        title={t('contactLists.items.deleteTitle', { name: deleting?.name ?? '' })}
        message={t('contactLists.items.deleteMessage')}
        busy={removing.isLoading}
        onConfirm={() => void confirm()}
        onClose={() => setDeleting(null)}
      />
    </CampaignPageBox>
  );
}

/** Add (null) or edit an item: name 2 to 50, number 8 to 50, email valid when given. */
function ContactListItemDialog({
  record,
  contactListId,
  onClose,
}: {
  record: ContactListItemDto | null;
  contactListId: number;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const [save, saving] = useSaveContactListItemMutation();
  const form = useEntityDialog({
    initial: (): ContactListItemValues => ({ name: record?.name ?? '', number: record?.number ?? '', email: record?.email ?? '' }),
    validate: validateContactListItem,
    problemText: (_key, problem) => t(`validation.${problem}`),
  });
  const submit = form.handleSubmit(
    async (v) => {
      await save({ id: record?.id, name: v.name.trim(), number: v.number.trim(), email: v.email.trim(), contactListId }).unwrap();
      campaignNotify.success(t('contactLists.items.saved'));
      onClose();
    },
    (err) => campaignNotify.error(err),
  );
  const field = (key: keyof ContactListItemValues, required: boolean) => (
    <TextField
      label={t(`contactLists.items.${key}`)}
      required={required}
      value={form.values[key]}
      onChange={(e) => form.set(key, e.target.value)}
      // an empty field left shows nothing yet: a problem appearing then would move the buttons under the pointer
      onBlur={() => form.values[key] && form.touch(key)}
      error={form.errorOf(key)}
      testId={`contact-list-item-${key}`}
    />
  );
  return (
    <FormDialog
      title={record ? t('contactLists.items.edit') : t('contactLists.items.add')}
      testId="contact-list-item-dialog"
      onSubmit={(e) => void submit(e)}
      onClose={onClose}
      busy={saving.isLoading}
    >
      {field('name', true)}
      {field('number', true)}
      {field('email', false)}
    </FormDialog>
  );
}

export default withCampaignsGate(ContactListItemsPage);
