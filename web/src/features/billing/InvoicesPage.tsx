import { Box, Button, Table, Text } from '@chakra-ui/react';
import type { InvoiceDto } from '@wa/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { brDate, companyTimeZone } from '../../app/expiry';
import { ListPageHeader, ListTableBox, useScrollPaging } from '../../app/list-page';
import { selectUser } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { SEARCH_DEBOUNCE_MS, useDebounced } from '../../app/use-debounced';
import { ListFooter } from '../../components/ListFooter';
import { brl, invoiceState, type InvoiceState } from './billing-rules';
import { useListInvoicesInfiniteQuery } from './billing.api';
import { CheckoutDialog } from './CheckoutDialog';

const STATE_COLOR: Record<InvoiceState, string> = { paid: 'green.fg', overdue: 'red.fg', open: 'fg', cancelled: 'fg.muted' };

/**
 * /financeiro, Faturas (spec 02 §2, §4): the invoices (id, details, value, due date, status, action), searched after
 * 500 ms and page after page; Pago, Vencido (the row tinted) or Em Aberto; PAGAR on an open one opens the checkout,
 * an inert PAGO on a paid one, nothing on a cancelled one. The super user sees every company's, with the company's name
 * (and pays only their own: the checkout is the caller's company's).
 */
export default function InvoicesPage() {
  const { t } = useTranslation();
  const user = useAppSelector(selectUser);
  const timeZone = companyTimeZone(user?.company);
  const [search, setSearch] = useState('');
  const searchParam = useDebounced(search.trim(), SEARCH_DEBOUNCE_MS);
  const list = useListInvoicesInfiniteQuery(searchParam);
  const invoices = list.data?.pages.flatMap((p) => p.invoices ?? []) ?? [];
  const paging = useScrollPaging(list, invoices.length);
  const [paying, setPaying] = useState<InvoiceDto | null>(null);
  const showCompany = user?.super === true;
  const now = new Date();

  return (
    <Box p={{ base: '3', md: '6' }} h="full" display="flex" flexDirection="column" data-testid="invoices-page">
      <ListPageHeader
        title={t('billing.title')}
        count={list.data?.pages[0]?.count}
        search={search}
        onSearch={setSearch}
        searchLabel={t('billing.search')}
        testId="invoices"
      />
      <ListTableBox paging={paging} testId="invoices-list">
        <Table.Root size="sm" data-testid="invoices-table">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>{t('billing.columns.id')}</Table.ColumnHeader>
              {showCompany && <Table.ColumnHeader>{t('billing.columns.company')}</Table.ColumnHeader>}
              <Table.ColumnHeader>{t('billing.columns.detail')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="right">{t('billing.columns.value')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="center">{t('billing.columns.dueDate')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="center">{t('billing.columns.status')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="center">{t('billing.columns.action')}</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {invoices.map((inv) => {
              const state = invoiceState(inv, now, timeZone);
              return (
                <Table.Row
                  key={inv.id}
                  bg={state === 'overdue' ? 'red.subtle' : undefined}
                  data-testid="invoice-row"
                  data-invoice-id={inv.id}
                  data-state={state}
                >
                  <Table.Cell>{inv.id}</Table.Cell>
                  {showCompany && <Table.Cell>{inv.companyName}</Table.Cell>}
                  <Table.Cell>{inv.detail}</Table.Cell>
                  <Table.Cell textAlign="right" whiteSpace="nowrap" data-testid="invoice-value">
                    {brl(inv.value)}
                  </Table.Cell>
                  <Table.Cell textAlign="center" whiteSpace="nowrap" data-testid="invoice-due">
                    {brDate(inv.dueDate)}
                  </Table.Cell>
                  <Table.Cell textAlign="center">
                    <Text as="span" fontWeight="medium" color={STATE_COLOR[state]} data-testid="invoice-status">
                      {t(`billing.states.${state}`)}
                    </Text>
                  </Table.Cell>
                  <Table.Cell textAlign="center">
                    {state === 'paid' ? (
                      <Button size="xs" variant="outline" colorPalette="green" disabled data-testid="invoice-paid">
                        {t('billing.paid')}
                      </Button>
                    ) : state === 'cancelled' || inv.companyId !== user?.companyId ? null : (
                      <Button size="xs" colorPalette="teal" onClick={() => setPaying(inv)} data-testid="invoice-pay">
                        {t('billing.pay')}
                      </Button>
                    )}
                  </Table.Cell>
                </Table.Row>
              );
            })}
          </Table.Body>
        </Table.Root>
        <ListFooter query={list} count={invoices.length} />
      </ListTableBox>
      {paying && <CheckoutDialog key={paying.id} invoice={paying} onClose={() => setPaying(null)} />}
    </Box>
  );
}
