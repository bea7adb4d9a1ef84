import { Badge, Box, Button, Flex, Heading, HStack, IconButton, Input, Table, Text } from '@chakra-ui/react';
import type { CompanyDto } from '@wa/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdAdd, MdAutorenew } from 'react-icons/md';
import { errorCode, errorText } from '../../app/errors';
import { ListFooter } from '../../components/ListFooter';
import { RowActions, useConfirmedDelete, useScrollPaging } from '../../app/list-page';
import { notify } from '../../app/notify';
import { SEARCH_DEBOUNCE_MS, useDebounced } from '../../app/use-debounced';
import { brDate, companyToday } from '../../app/expiry';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useDeleteCompanyMutation, useListCompaniesInfiniteQuery, useUpdateCompanyMutation } from './companies.api';
import { NextInvoiceCell } from '../billing/NextInvoiceCell';
import { CompanyDialog } from './CompanyDialog';
import {
  campaignsEnabledOf,
  companyDay,
  companyDue,
  isCompanySaveRefusal,
  isRecurrence,
  renewedDueDate,
  type DueTone,
} from './company-rules';

/** spec 02 §4: the row tints by due date. */
const TONE_BG: Record<DueTone, string> = { yellow: 'yellow.subtle', orange: 'orange.subtle', red: 'red.subtle' };

/**
 * The Empresas tab of /settings (spec 02 "Companies", super users only): the companies (`GET /companies`, searched
 * after 500 ms, page after page) with plan, status, campaigns, dates, recurrence and the next invoice (due date, value,
 * overdue; billing's `GET /invoices/next`, one call per page), each row tinted by its due date;
 * add, edit, "Renovar" (the due date moved on by the recurrence) and delete behind a confirmation.
 */
export function CompaniesTab() {
  const { t, i18n } = useTranslation();
  const [search, setSearch] = useState('');
  const searchParam = useDebounced(search.trim(), SEARCH_DEBOUNCE_MS);
  const list = useListCompaniesInfiniteQuery(searchParam);
  const companies = list.data?.pages.flatMap((p) => p.companies ?? []) ?? [];
  // the next invoices come by page: one GET /invoices/next for the companies of each page
  const pageIdsOf = new Map<number, number[]>();
  for (const p of list.data?.pages ?? []) {
    const ids = (p.companies ?? []).map((c) => c.id);
    for (const id of ids) pageIdsOf.set(id, ids);
  }
  const paging = useScrollPaging(list, companies.length);
  const count = list.data?.pages[0]?.count ?? companies.length;
  const [editing, setEditing] = useState<CompanyDto | null | undefined>(undefined);
  const [update] = useUpdateCompanyMutation();
  const [renewing, setRenewing] = useState<number | null>(null);
  const [remove, removing] = useDeleteCompanyMutation();
  // spec 02 §8: a refused delete says 'Não foi possível realizar a operação.', with the reason when there is one
  // (403: the company signed in to, or the provider's, cannot go). useConfirmedDelete toasts what is thrown.
  const removeWithMessage = (id: number) => ({
    unwrap: () =>
      remove(id)
        .unwrap()
        .catch((err: unknown) => {
          const status = err && typeof err === 'object' && 'status' in err ? (err as { status: unknown }).status : undefined;
          const code = errorCode(err);
          const detail =
            status === 403
              ? ` ${t('settings.companies.toasts.cannotDelete')}`
              : code && i18n.exists(`backendErrors.${code}`)
                ? ` ${errorText(err)}`
                : '';
          throw `${t('settings.companies.toasts.deleteFailed')}${detail}`;
        }),
  });
  const {
    deleting,
    setDeleting,
    confirm: confirmDelete,
  } = useConfirmedDelete<CompanyDto>(removeWithMessage, t('settings.companies.toasts.deleted'));

  async function renew(c: CompanyDto) {
    setRenewing(c.id);
    try {
      await update({ id: c.id, dueDate: renewedDueDate(c.dueDate, c.recurrence, companyToday(c)) }).unwrap();
      notify.success(t('settings.companies.toasts.saved'));
    } catch (err) {
      if (isCompanySaveRefusal(err)) notify.errorText(t('settings.companies.toasts.saveFailed'));
      else notify.error(err);
    } finally {
      setRenewing(null);
    }
  }

  const recurrenceLabel = (r: string | undefined) => (isRecurrence(r) ? t(`settings.companies.recurrences.${r}`) : (r ?? ''));

  return (
    <Box data-testid="settings-companies">
      <Flex gap="3" mb="4" align="center" wrap="wrap">
        <Heading size="md" flex="1">
          {t('settings.companies.title')}{' '}
          <Text as="span" color="fg.muted" textStyle="sm" data-testid="companies-count">
            ({count})
          </Text>
        </Heading>
        <Input
          size="sm"
          maxW="64"
          placeholder={t('settings.companies.search')}
          aria-label={t('settings.companies.search')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          data-testid="companies-search"
        />
        <Button size="sm" colorPalette="teal" onClick={() => setEditing(null)} data-testid="companies-add">
          <MdAdd />
          {t('settings.companies.add')}
        </Button>
      </Flex>
      <Box
        borderRadius="md"
        borderWidth="1px"
        overflowX="auto"
        ref={paging.ref}
        maxH="calc(100dvh - 16rem)"
        overflowY="auto"
        onScroll={paging.onScroll}
        data-testid="companies-list"
      >
        <Table.Root size="sm" data-testid="companies-table">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>{t('settings.companies.columns.name')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('settings.companies.columns.email')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('settings.companies.columns.phone')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('settings.companies.columns.plan')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="center">{t('settings.companies.columns.status')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="center">{t('settings.companies.columns.campaigns')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="center">{t('settings.companies.columns.createdAt')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="center">{t('settings.companies.columns.dueDate')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="center">{t('settings.companies.columns.recurrence')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="center">{t('settings.companies.columns.nextInvoice')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="center">{t('settings.companies.columns.actions')}</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {companies.map((c) => {
              const due = companyDue(c);
              const campaigns = campaignsEnabledOf(c);
              return (
                <Table.Row
                  key={c.id}
                  bg={due.tone ? TONE_BG[due.tone] : undefined}
                  data-testid={`company-row-${c.id}`}
                  data-due={due.state}
                  data-due-tone={due.tone ?? undefined}
                >
                  <Table.Cell fontWeight="medium" data-testid="company-name-cell">
                    {c.name}
                  </Table.Cell>
                  <Table.Cell data-testid="company-email-cell">{c.email ?? ''}</Table.Cell>
                  <Table.Cell whiteSpace="nowrap" data-testid="company-phone-cell">
                    {c.phone ?? ''}
                  </Table.Cell>
                  <Table.Cell data-testid="company-plan-cell">{c.plan?.name ?? ''}</Table.Cell>
                  <Table.Cell textAlign="center" data-testid="company-status-cell">
                    <Badge size="sm" variant="subtle" colorPalette={c.status ? 'green' : 'gray'}>
                      {c.status ? t('settings.companies.active') : t('settings.companies.inactive')}
                    </Badge>
                  </Table.Cell>
                  <Table.Cell textAlign="center" data-testid="company-campaigns-cell">
                    {campaigns ? t('settings.companies.enabled') : t('settings.companies.disabled')}
                  </Table.Cell>
                  <Table.Cell textAlign="center" whiteSpace="nowrap" data-testid="company-created-cell">
                    {companyDay(c.createdAt, c)}
                  </Table.Cell>
                  <Table.Cell
                    textAlign="center"
                    whiteSpace="nowrap"
                    fontWeight={due.state === 'ok' ? undefined : 'medium'}
                    data-testid="company-due-cell"
                  >
                    {brDate(c.dueDate)}
                  </Table.Cell>
                  <Table.Cell textAlign="center" data-testid="company-recurrence-cell">
                    {recurrenceLabel(c.recurrence)}
                  </Table.Cell>
                  <Table.Cell textAlign="center" data-testid="company-next-invoice-cell">
                    <NextInvoiceCell companyId={c.id} pageIds={pageIdsOf.get(c.id) ?? [c.id]} />
                  </Table.Cell>
                  <Table.Cell textAlign="center">
                    <HStack justify="center" gap="1">
                      <IconButton
                        size="xs"
                        variant="ghost"
                        colorPalette="teal"
                        aria-label={t('settings.companies.renew')}
                        title={t('settings.companies.renew')}
                        loading={renewing === c.id}
                        disabled={renewing !== null}
                        onClick={() => void renew(c)}
                        data-testid="company-renew"
                      >
                        <MdAutorenew />
                      </IconButton>
                      <RowActions onEdit={() => setEditing(c)} onDelete={() => setDeleting(c)} testId="company" />
                    </HStack>
                  </Table.Cell>
                </Table.Row>
              );
            })}
          </Table.Body>
        </Table.Root>
        <ListFooter query={list} count={companies.length} />
      </Box>
      {editing !== undefined && <CompanyDialog key={editing?.id ?? 'new'} company={editing} onClose={() => setEditing(undefined)} />}
      <ConfirmDialog
        open={!!deleting}
        title={t('settings.companies.confirm.deleteTitle', { name: deleting?.name ?? '' })}
        message={t('settings.companies.confirm.deleteMessage')}
        busy={removing.isLoading}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </Box>
  );
}
