import { Badge, HStack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { brDate } from '../../app/expiry';
import { brl } from './billing-rules';
import { useNextInvoicesQuery } from './billing.api';

/**
 * The companies list's next invoice of one company (super users): its due date, value and an "overdue" badge.
 * `pageIds` are the companies of its page: the rows of a page share one `GET /invoices/next?companyIds=` call.
 */
export function NextInvoiceCell({ companyId, pageIds }: { companyId: number; pageIds: number[] }) {
  const { t } = useTranslation();
  const { data, isLoading } = useNextInvoicesQuery(pageIds, { skip: pageIds.length === 0 });
  const next = data?.find((n) => n.companyId === companyId);
  if (isLoading) return null;
  if (!next)
    return (
      <Text as="span" color="fg.muted" data-testid="company-next-invoice-none">
        {t('settings.companies.noInvoice')}
      </Text>
    );
  return (
    <HStack
      gap="2"
      justify="center"
      whiteSpace="nowrap"
      data-testid="company-next-invoice"
      data-overdue={next.overdue ? 'true' : undefined}
    >
      <Text as="span">{brDate(next.dueDate)}</Text>
      <Text as="span" fontWeight="medium">
        {brl(next.value)}
      </Text>
      {next.overdue && (
        <Badge size="sm" colorPalette="red" variant="solid" data-testid="company-next-invoice-overdue">
          {t('settings.companies.overdue')}
        </Badge>
      )}
    </HStack>
  );
}
