import { Box, Button, Field, Heading, Input, Stack, Text } from '@chakra-ui/react';
import type { InvoiceDto } from '@wa/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { companyTimeZone, daysUntilDue } from '../../app/expiry';
import { errorText } from '../../app/errors';
import { selectUser } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { invoiceToPay } from './billing-rules';
import { useFirstInvoicesQuery } from './billing.api';
import { CheckoutDialog } from './CheckoutDialog';

/**
 * /subscription (spec 02 §2): the days of trial left (to the company's due date, on its calendar) and the billing
 * email, read-only, and 'Assine Agora!', which opens the checkout of the company's newest open invoice.
 */
export default function SubscriptionPage() {
  const { t } = useTranslation();
  const user = useAppSelector(selectUser);
  const company = user?.company;
  const days = daysUntilDue(company?.dueDate, new Date(), companyTimeZone(company));
  const invoices = useFirstInvoicesQuery();
  const [paying, setPaying] = useState<InvoiceDto | null>(null);
  const [noInvoice, setNoInvoice] = useState(false);

  function subscribe() {
    const own = (invoices.data?.invoices ?? []).filter((i) => i.companyId === user?.companyId);
    const invoice = invoiceToPay(own);
    setNoInvoice(!invoice);
    setPaying(invoice);
  }

  return (
    <Box p={{ base: '3', md: '6' }} data-testid="subscription-page">
      <Box maxW="xl" bg="bg" borderWidth="1px" borderRadius="md" p="6">
        <Heading size="lg" mb="4">
          {t('billing.subscription.title')}
        </Heading>
        <Stack gap="4">
          <Field.Root readOnly>
            <Field.Label>{t('billing.subscription.trial')}</Field.Label>
            <Input
              readOnly
              value={
                days === null ? '' : days < 0 ? t('billing.subscription.expired') : t('billing.subscription.daysLeft', { count: days })
              }
              data-testid="subscription-days"
            />
          </Field.Root>
          <Field.Root readOnly>
            <Field.Label>{t('billing.subscription.email')}</Field.Label>
            <Input readOnly value={company?.email ?? ''} data-testid="subscription-email" />
          </Field.Root>
          {invoices.isError && <Text color="fg.error">{errorText(invoices.error)}</Text>}
          {noInvoice && (
            <Text color="fg.muted" data-testid="subscription-no-invoice">
              {t('billing.subscription.noOpenInvoice')}
            </Text>
          )}
          <Button
            colorPalette="teal"
            alignSelf="start"
            loading={invoices.isLoading}
            disabled={!invoices.data}
            onClick={subscribe}
            data-testid="subscription-subscribe"
          >
            {t('billing.subscription.subscribe')}
          </Button>
        </Stack>
      </Box>
      {paying && <CheckoutDialog key={paying.id} invoice={paying} onClose={() => setPaying(null)} />}
    </Box>
  );
}
