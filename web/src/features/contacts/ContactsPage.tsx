import { Box, Button, HStack, IconButton, Input, Progress, Table, Text } from '@chakra-ui/react';
import type { ContactDto, ContactsImportReport } from '@wa/contracts';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdDelete, MdEdit, MdEvent, MdFileDownload, MdFileUpload, MdSmartphone, MdWhatsapp } from 'react-icons/md';
import { useNavigate } from 'react-router-dom';
import { apiUrl } from '../../app/config';
import { ListPageHeader, ListTableBox, useScrollPaging } from '../../app/list-page';
import { ListFooter } from '../../components/ListFooter';
import { notify } from '../../app/notify';
import { selectIsAdmin, selectUser } from '../../app/session';
import { getToken } from '../../app/storage';
import { useAppSelector } from '../../app/store';
import { SEARCH_DEBOUNCE_MS, useDebounced } from '../../app/use-debounced';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ContactAvatar } from '../../components/ContactAvatar';
import { canSchedule } from '../../app/plan-flags';
import { canChat } from './contact-rules';
import { ContactDialog } from './ContactDialog';
import {
  useDeleteContactMutation,
  useImportPhoneContactsMutation,
  useListContactsInfiniteQuery,
  useUploadContactsMutation,
} from './contacts.api';
import { useOpenTicket } from './use-open-ticket';
import { formatPhone } from '../../app/phone';

/** Downloads the company's contacts as CSV (semicolon-separated) with the session's token. */
async function exportCsv(): Promise<void> {
  const res = await fetch(`${apiUrl()}/contacts/export`, { headers: { authorization: `Bearer ${getToken() ?? ''}` } });
  if (!res.ok) throw { data: await res.json().catch(() => undefined) };
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = 'contatos.csv';
  a.click();
  URL.revokeObjectURL(url);
}

/** /contacts (spec 01 §2, spec 02 §2): search, pages, add, edit, delete (admin), import and export (admin), chat, schedule a message. */
export default function ContactsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const isAdmin = useAppSelector(selectIsAdmin);
  const schedules = canSchedule(useAppSelector(selectUser));
  const [search, setSearch] = useState('');
  const searchParam = useDebounced(search.trim(), SEARCH_DEBOUNCE_MS);
  const [dateStart, setDateStart] = useState('');
  const [dateEnd, setDateEnd] = useState('');
  const list = useListContactsInfiniteQuery({ search: searchParam, dateStart, dateEnd });
  const contacts = list.data?.pages.flatMap((p) => p.contacts) ?? [];
  const paging = useScrollPaging(list, contacts.length);
  const count = list.data?.pages[0]?.count ?? 0;
  const [editing, setEditing] = useState<ContactDto | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<ContactDto | null>(null);
  const [remove, removing] = useDeleteContactMutation();
  const [upload, uploading] = useUploadContactsMutation();
  const [importPhone, importingPhone] = useImportPhoneContactsMutation();
  const [report, setReport] = useState<ContactsImportReport | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const { open, opening } = useOpenTicket();

  async function importFile(file: File | undefined) {
    if (!file) return;
    const form = new FormData();
    form.append('file', file);
    try {
      setReport(await upload(form).unwrap());
    } catch (err) {
      notify.error(err);
    } finally {
      if (fileInput.current) fileInput.current.value = '';
    }
  }

  async function confirmDelete() {
    if (!deleting) return;
    try {
      await remove(deleting.id).unwrap();
      notify.success(t('contacts.toasts.deleted'));
    } catch (err) {
      notify.error(err);
    }
    setDeleting(null);
  }

  return (
    <Box p={{ base: '3', md: '6' }} h="full" display="flex" flexDirection="column" data-testid="contacts-page">
      <ListPageHeader
        title={t('contacts.title')}
        count={count}
        search={search}
        onSearch={setSearch}
        searchLabel={t('contacts.search')}
        addLabel={t('contacts.add')}
        onAdd={() => setEditing(null)}
        testId="contacts"
        addTestId="contact-add"
      >
        <HStack gap="2" wrap="wrap">
          <Input
            size="sm"
            w="40"
            type="date"
            aria-label={t('contacts.dateStart')}
            title={t('contacts.dateStart')}
            value={dateStart}
            max={dateEnd || undefined}
            onChange={(e) => setDateStart(e.target.value)}
            data-testid="contacts-date-start"
          />
          <Input
            size="sm"
            w="40"
            type="date"
            aria-label={t('contacts.dateEnd')}
            title={t('contacts.dateEnd')}
            value={dateEnd}
            min={dateStart || undefined}
            onChange={(e) => setDateEnd(e.target.value)}
            data-testid="contacts-date-end"
          />
          {isAdmin && (
            <>
              <input
                ref={fileInput}
                type="file"
                accept=".xlsx,.csv"
                hidden
                onChange={(e) => void importFile(e.target.files?.[0])}
                data-testid="contacts-import-file"
              />
              <Button
                size="sm"
                variant="outline"
                onClick={() => fileInput.current?.click()}
                loading={uploading.isLoading}
                data-testid="contacts-import"
              >
                <MdFileUpload />
                {t('contacts.import')}
              </Button>
              <Button
                size="sm"
                variant="outline"
                loading={importingPhone.isLoading}
                onClick={() =>
                  importPhone()
                    .unwrap()
                    .then(setReport, (err: unknown) => notify.error(err))
                }
                data-testid="contacts-import-phone"
              >
                <MdSmartphone />
                {t('contacts.importPhone')}
              </Button>
              <Button
                size="sm"
                variant="outline"
                onClick={() => exportCsv().catch((err: unknown) => notify.error(err))}
                data-testid="contacts-export"
              >
                <MdFileDownload />
                {t('contacts.export')}
              </Button>
            </>
          )}
        </HStack>
      </ListPageHeader>
      {(uploading.isLoading || importingPhone.isLoading) && (
        <Progress.Root value={null} size="xs" mb="3" data-testid="contacts-import-progress">
          <Progress.Track>
            <Progress.Range />
          </Progress.Track>
        </Progress.Root>
      )}
      {report && (
        <Box mb="3" p="3" borderWidth="1px" borderRadius="md" bg="bg" data-testid="contacts-import-report">
          <Text textStyle="sm">
            {t('contacts.importReport', { created: report.created, updated: report.updated, failed: report.failed.length })}
          </Text>
          {report.failed.slice(0, 20).map((f) => (
            <Text key={f.row} textStyle="xs" color="fg.error">
              {t('contacts.importRow', {
                row: f.row,
                number: f.number,
                error: f.error.startsWith('ERR_') ? t(`backendErrors.${f.error}`) : f.error,
              })}
            </Text>
          ))}
          <Button size="xs" variant="ghost" mt="1" onClick={() => setReport(null)}>
            {t('common.close')}
          </Button>
        </Box>
      )}
      <ListTableBox paging={paging} testId="contacts-list">
        <Table.Root size="sm" data-testid="contacts-table">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader w="10" />
              <Table.ColumnHeader>{t('contacts.columns.name')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('contacts.columns.number')}</Table.ColumnHeader>
              <Table.ColumnHeader hideBelow="md">{t('contacts.columns.email')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="center">{t('contacts.columns.actions')}</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {contacts.map((c) => {
              const chat = canChat(c);
              return (
                <Table.Row key={c.id} data-testid="contact-row" data-contact-id={c.id}>
                  <Table.Cell>
                    <ContactAvatar name={c.name} src={c.profilePicUrl} size="sm" />
                  </Table.Cell>
                  <Table.Cell fontWeight="medium">{c.name}</Table.Cell>
                  <Table.Cell>{formatPhone(c.number)}</Table.Cell>
                  <Table.Cell hideBelow="md">{c.email}</Table.Cell>
                  <Table.Cell textAlign="center">
                    <HStack justify="center" gap="1">
                      <Button
                        size="xs"
                        variant="ghost"
                        colorPalette="green"
                        disabled={!chat || opening}
                        onClick={() => void open(c.id)}
                        data-testid="contact-chat"
                        title={chat ? t('contacts.chat') : undefined}
                      >
                        <MdWhatsapp />
                        {!chat && t('contacts.outOfWhatsapp')}
                      </Button>
                      {schedules && (
                        <IconButton
                          size="xs"
                          variant="ghost"
                          aria-label={t('contacts.schedule')}
                          title={t('contacts.schedule')}
                          onClick={() => navigate(`/schedules?contactId=${c.id}`)}
                          data-testid="contact-schedule"
                        >
                          <MdEvent />
                        </IconButton>
                      )}
                      <IconButton
                        size="xs"
                        variant="ghost"
                        aria-label={t('common.edit')}
                        onClick={() => setEditing(c)}
                        data-testid="contact-edit"
                      >
                        <MdEdit />
                      </IconButton>
                      {isAdmin && (
                        <IconButton
                          size="xs"
                          variant="ghost"
                          colorPalette="red"
                          aria-label={t('common.delete')}
                          onClick={() => setDeleting(c)}
                          data-testid="contact-delete"
                        >
                          <MdDelete />
                        </IconButton>
                      )}
                    </HStack>
                  </Table.Cell>
                </Table.Row>
              );
            })}
          </Table.Body>
        </Table.Root>
        <ListFooter query={list} count={contacts.length} />
      </ListTableBox>
      {editing !== undefined && <ContactDialog contact={editing} onClose={() => setEditing(undefined)} />}
      <ConfirmDialog
        open={!!deleting}
        title={t('contacts.confirm.deleteTitle', { name: deleting?.name ?? '' })}
        message={t('contacts.confirm.deleteMessage')}
        busy={removing.isLoading}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </Box>
  );
}
