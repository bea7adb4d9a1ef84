import {
  Alert,
  Box,
  Button,
  chakra,
  Circle,
  Dialog,
  Field,
  Flex,
  HStack,
  Image,
  Input,
  NativeSelect,
  Portal,
  Spinner,
  Stack,
  Text,
} from '@chakra-ui/react';
import { SocketChannels, type InvoiceDto, type PaymentEvent, type PlanDto, type SubscriptionCharge } from '@wa/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdCheck, MdContentCopy } from 'react-icons/md';
import { useNavigate } from 'react-router-dom';
import { brDate } from '../../app/expiry';
import { notify } from '../../app/notify';
import { selectUser } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { useEntityDialog } from '../../components/use-entity-dialog';
import { useSocketEvent } from '../../realtime/RealtimeProvider';
import {
  brl,
  CHECKOUT_STEPS,
  checkoutPlans,
  checkoutPrice,
  checkoutProblems,
  COPY_CONFIRMATION_MS,
  COUNTRIES,
  initialCheckout,
  RENEWAL_REDIRECT_MS,
  stepOfField,
  subscriptionRequest,
  type CheckoutStep,
  type CheckoutValues,
  type DataField,
} from './billing-rules';
import { useCheckoutPlansQuery, useSubscribeMutation } from './billing.api';
import { useCopyConfirmation as useCopiedFor } from '../../app/clipboard';

/** Copies a text; `copied` is true for 1 s after (spec 02 §9). */
export function useCopyConfirmation(ms: number = COPY_CONFIRMATION_MS) {
  return useCopiedFor(ms);
}

/** The stepper's head: Dados, Personalizar, Revisar, the current one marked. */
function Steps({ step }: { step: CheckoutStep }) {
  const { t } = useTranslation();
  return (
    <HStack gap="2" wrap="wrap" data-testid="checkout-steps">
      {CHECKOUT_STEPS.map((name, i) => (
        <HStack key={name} gap="2" data-testid={`checkout-step-${i}`} data-active={i === step ? 'true' : undefined}>
          {i > 0 && <Box w="6" h="1px" bg="border" />}
          <Circle size="6" bg={i <= step ? 'teal.solid' : 'bg.muted'} color={i <= step ? 'teal.contrast' : 'fg.muted'} textStyle="xs">
            {i < step ? <MdCheck /> : i + 1}
          </Circle>
          <Text textStyle="sm" fontWeight={i === step ? 'semibold' : 'normal'} color={i === step ? 'fg' : 'fg.muted'}>
            {t(`billing.checkout.steps.${name}`)}
          </Text>
        </HStack>
      ))}
    </HStack>
  );
}

/** The Pix screen: the QR image, the copy-and-paste code with its copy button, the amount; the renewal once paid. */
function PixScreen({ charge, renewed }: { charge: SubscriptionCharge; renewed: boolean }) {
  const { t } = useTranslation();
  const { copied, copy } = useCopyConfirmation();
  return (
    <Stack gap="4" align="center" data-testid="checkout-pix">
      <Text textStyle="lg" fontWeight="semibold">
        {t('billing.checkout.pixTitle')}
      </Text>
      <Text textStyle="sm" color="fg.muted" textAlign="center">
        {t('billing.checkout.pixHint')}
      </Text>
      <Image src={charge.qrcode.imagemQrcode} alt={t('billing.checkout.qrAlt')} boxSize="56" data-testid="checkout-qr" />
      <Text fontWeight="semibold" data-testid="checkout-amount">
        {t('billing.checkout.amount', { value: brl(charge.valor.original) })}
      </Text>
      <Text textStyle="xs" color="fg.muted" fontFamily="mono" data-testid="checkout-txid">
        {t('billing.checkout.txid', { txid: charge.txid })}
      </Text>
      <Field.Root w="full">
        <Field.Label>{t('billing.checkout.pixCode')}</Field.Label>
        <HStack w="full">
          <Input readOnly value={charge.qrcode.qrcode} fontFamily="mono" textStyle="xs" data-testid="checkout-pix-code" />
          <Button
            variant="outline"
            colorPalette={copied ? 'green' : 'teal'}
            onClick={() => void copy(charge.qrcode.qrcode)}
            data-testid="checkout-copy"
            data-copied={copied ? 'true' : undefined}
          >
            {copied ? <MdCheck /> : <MdContentCopy />}
            {copied ? t('billing.checkout.copied') : t('billing.checkout.copy')}
          </Button>
        </HStack>
      </Field.Root>
      {renewed ? (
        <Alert.Root status="success" data-testid="checkout-renewed">
          <Alert.Indicator />
          <Alert.Title>{t('billing.checkout.renewed')}</Alert.Title>
        </Alert.Root>
      ) : (
        <HStack color="fg.muted" textStyle="sm" data-testid="checkout-waiting">
          <Spinner size="sm" />
          <Text>{t('billing.checkout.waiting')}</Text>
        </HStack>
      )}
    </Stack>
  );
}

/** One line of the review. */
function Line({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Flex justify="space-between" gap="4" textStyle="sm">
      <Text color="fg.muted">{label}</Text>
      <Text textAlign="right" data-testid={testId}>
        {value}
      </Text>
    </Flex>
  );
}

/**
 * The checkout of an invoice (spec 02 §2, §4, §5): the steps Dados (the billing name and address, the required
 * fields' texts), Personalizar (the plan: the company's own unless another is chosen) and Revisar; the last step
 * sends `POST /subscription` and shows the Pix screen. The live CONCLUIDA of this invoice shows the renewal and
 * goes to / after 4 s. The server's refusal of a field shows under it (its step opens), any other as a toast.
 */
export function CheckoutDialog({ invoice, onClose }: { invoice: InvoiceDto; onClose(): void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useAppSelector(selectUser);
  const company = user?.company;
  const currentPlanId = company?.planId;
  const publicPlans = useCheckoutPlansQuery().data;
  const plans = checkoutPlans(publicPlans, company?.plan ? { ...company.plan, id: company.plan.id ?? company.planId } : null);
  const [subscribe, subscribing] = useSubscribeMutation();
  const [step, setStep] = useState<CheckoutStep>(0);
  const [charge, setCharge] = useState<SubscriptionCharge | null>(null);
  const [renewed, setRenewed] = useState(false);
  const form = useEntityDialog({
    initial: () => initialCheckout(currentPlanId),
    validate: (v: CheckoutValues) => checkoutProblems(v),
    problemText: (_key, problem) => problem,
  });
  const { values, set } = form;
  const plan: PlanDto | undefined = plans.find((p) => String(p.id) === values.planId);
  const price = checkoutPrice(invoice, plan, currentPlanId);

  // the company's plan may come after the dialog opened (the plans load): choose it then
  useEffect(() => {
    if (!values.planId && currentPlanId) set('planId', String(currentPlanId));
  }, [values.planId, currentPlanId, set]);

  useSocketEvent<PaymentEvent>(charge && user ? SocketChannels.payment(user.companyId) : null, (p) => {
    if (p?.action === 'CONCLUIDA' && (!p.invoiceId || p.invoiceId === charge?.invoiceId)) setRenewed(true);
  });
  useEffect(() => {
    if (!renewed) return;
    const timer = setTimeout(() => navigate('/'), RENEWAL_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [renewed, navigate]);

  function next() {
    if (step === 0 && Object.keys(checkoutProblems(values)).length > 0) {
      form.showProblems();
      return;
    }
    form.clearTouched();
    setStep((s) => Math.min(2, s + 1) as CheckoutStep);
  }

  const submit = form.handleSubmit(
    async (v) => {
      const answer = await subscribe(subscriptionRequest(v, invoice.id, plan, price)).unwrap();
      notify.success(t('billing.checkout.subscribed'));
      setCharge(answer);
    },
    (err, fields) => {
      const steps = Object.keys(fields)
        .map(stepOfField)
        .filter((s): s is CheckoutStep => s !== null);
      if (steps.length > 0) setStep(Math.min(...steps) as CheckoutStep);
      else notify.error(err);
    },
  );

  const field = (key: DataField, required = false) => (
    <Field.Root key={key} required={required} invalid={!!form.errorOf(key)} flex="1" minW="40">
      <Field.Label>
        {t(`billing.checkout.fields.${key}`)}
        {required && <Field.RequiredIndicator />}
      </Field.Label>
      {key === 'country' ? (
        <NativeSelect.Root size="sm">
          <NativeSelect.Field
            value={values.country}
            onChange={(e) => set('country', e.target.value)}
            onBlur={() => form.touch('country')}
            data-testid="checkout-country"
          >
            <option value="">{t('billing.checkout.chooseCountry')}</option>
            {COUNTRIES.map((c) => (
              <option key={c} value={c}>
                {t(`billing.checkout.countries.${c}`)}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      ) : (
        <Input
          size="sm"
          value={values[key]}
          onChange={(e) => set(key, e.target.value)}
          onBlur={() => form.touch(key)}
          data-testid={`checkout-${key}`}
        />
      )}
      {form.errorOf(key) && <Field.ErrorText data-testid={`checkout-${key}-error`}>{form.errorOf(key)}</Field.ErrorText>}
    </Field.Root>
  );

  const countryName = values.country ? t(`billing.checkout.countries.${values.country}`, { defaultValue: values.country }) : '';
  const planProblem = form.serverErrors.plan || form.serverErrors.planId;

  return (
    <Dialog.Root open onOpenChange={(e) => !e.open && onClose()} size="lg" scrollBehavior="inside" closeOnInteractOutside={false}>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="checkout-dialog">
            <form
              onSubmit={(e) => {
                e.preventDefault();
                if (charge) return;
                if (step < 2) next();
                else void submit(e);
              }}
              noValidate
              style={{ display: 'contents' }}
            >
              <Dialog.Header>
                <Stack gap="3" w="full">
                  <Dialog.Title>{t('billing.checkout.title')}</Dialog.Title>
                  <Text textStyle="sm" color="fg.muted" data-testid="checkout-invoice">
                    {t('billing.checkout.invoice', { id: invoice.id, detail: invoice.detail })} · {brDate(invoice.dueDate)} ·{' '}
                    {brl(invoice.value)}
                  </Text>
                  {!charge && <Steps step={step} />}
                </Stack>
              </Dialog.Header>
              <Dialog.Body>
                {charge ? (
                  <PixScreen charge={charge} renewed={renewed} />
                ) : step === 0 ? (
                  <Stack gap="3" data-testid="checkout-data">
                    <HStack gap="3" align="start" wrap="wrap">
                      {field('firstName', true)}
                      {field('lastName')}
                    </HStack>
                    <HStack gap="3" align="start" wrap="wrap">
                      {field('address', true)}
                      {field('address2')}
                    </HStack>
                    <HStack gap="3" align="start" wrap="wrap">
                      {field('city', true)}
                      {field('state')}
                    </HStack>
                    <HStack gap="3" align="start" wrap="wrap">
                      {field('zipcode', true)}
                      {field('country', true)}
                    </HStack>
                  </Stack>
                ) : step === 1 ? (
                  <Stack gap="2" data-testid="checkout-plans" role="radiogroup" aria-label={t('billing.checkout.plan')}>
                    {plans.length === 0 && <Text color="fg.muted">{t('billing.checkout.noPlans')}</Text>}
                    {plans.map((p) => {
                      const chosen = String(p.id) === values.planId;
                      return (
                        <chakra.button
                          key={p.id}
                          type="button"
                          role="radio"
                          aria-checked={chosen}
                          textAlign="left"
                          borderWidth={chosen ? '2px' : '1px'}
                          borderColor={chosen ? 'teal.solid' : 'border'}
                          borderRadius="md"
                          p="3"
                          onClick={() => set('planId', String(p.id))}
                          data-testid={`checkout-plan-${p.id}`}
                          data-chosen={chosen ? 'true' : undefined}
                        >
                          <Flex justify="space-between" gap="3" wrap="wrap">
                            <Text fontWeight="semibold">
                              {p.name}
                              {p.id === currentPlanId && (
                                <Text as="span" color="fg.muted" fontWeight="normal" ms="2">
                                  ({t('billing.checkout.currentPlan')})
                                </Text>
                              )}
                            </Text>
                            <Text fontWeight="semibold" data-testid="checkout-plan-price">
                              {t('billing.checkout.perMonth', { value: brl(p.value) })}
                            </Text>
                          </Flex>
                          <Text textStyle="sm" color="fg.muted">
                            {t('billing.checkout.users')}: {p.users} · {t('billing.checkout.connections')}: {p.connections}
                          </Text>
                        </chakra.button>
                      );
                    })}
                    {planProblem && <Text color="fg.error">{planProblem}</Text>}
                  </Stack>
                ) : (
                  <Stack gap="4" data-testid="checkout-review">
                    <Stack gap="1">
                      <Text fontWeight="semibold">{t('billing.checkout.reviewData')}</Text>
                      <Line
                        label={t('billing.checkout.fields.firstName')}
                        value={`${values.firstName} ${values.lastName}`.trim()}
                        testId="review-name"
                      />
                      <Line
                        label={t('billing.checkout.fields.address')}
                        value={[values.address, values.address2].filter((s) => s.trim()).join(', ')}
                        testId="review-address"
                      />
                      <Line
                        label={t('billing.checkout.fields.city')}
                        value={[values.city, values.state].filter((s) => s.trim()).join(' / ')}
                        testId="review-city"
                      />
                      <Line label={t('billing.checkout.fields.zipcode')} value={values.zipcode} testId="review-zipcode" />
                      <Line label={t('billing.checkout.fields.country')} value={countryName} testId="review-country" />
                    </Stack>
                    <Stack gap="1">
                      <Text fontWeight="semibold">{t('billing.checkout.reviewPlan')}</Text>
                      <Line label={t('billing.checkout.plan')} value={plan?.name ?? ''} testId="review-plan" />
                      <Line label={t('billing.checkout.users')} value={String(plan?.users ?? '')} testId="review-users" />
                      <Line label={t('billing.checkout.connections')} value={String(plan?.connections ?? '')} testId="review-connections" />
                    </Stack>
                    <Flex justify="space-between" fontWeight="semibold" borderTopWidth="1px" pt="2">
                      <Text>{t('billing.checkout.total')}</Text>
                      <Text data-testid="review-total">{brl(price)}</Text>
                    </Flex>
                  </Stack>
                )}
              </Dialog.Body>
              <Dialog.Footer>
                {charge ? (
                  <Button variant="outline" onClick={onClose} data-testid="checkout-close">
                    {t('billing.checkout.close')}
                  </Button>
                ) : (
                  <>
                    {step > 0 ? (
                      <Button variant="outline" onClick={() => setStep((s) => (s - 1) as CheckoutStep)} data-testid="checkout-back">
                        {t('billing.checkout.back')}
                      </Button>
                    ) : (
                      <Button variant="outline" onClick={onClose} data-testid="checkout-cancel">
                        {t('common.cancel')}
                      </Button>
                    )}
                    {step < 2 ? (
                      <Button type="submit" colorPalette="teal" disabled={step === 1 && !plan} data-testid="checkout-next">
                        {t('billing.checkout.next')}
                      </Button>
                    ) : (
                      <Button type="submit" colorPalette="teal" loading={subscribing.isLoading} data-testid="checkout-submit">
                        {t('billing.checkout.submit')}
                      </Button>
                    )}
                  </>
                )}
              </Dialog.Footer>
            </form>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
