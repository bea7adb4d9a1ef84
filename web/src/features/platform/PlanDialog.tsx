import { Button, Dialog, Field, Fieldset, Input, Portal, SimpleGrid, Stack, Switch } from '@chakra-ui/react';
import type { PublicPlanDto } from '@wa/contracts';
import { Fragment, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { errorCode, errorText } from '../../app/errors';
import { notify } from '../../app/notify';
import { useEntityDialog } from '../../components/use-entity-dialog';
import {
  changedPlanFields,
  isPlanSaveRefusal,
  PLAN_COUNTS,
  PLAN_FLAGS,
  planFieldMax,
  planFormOf,
  planPayload,
  validatePlanForm,
} from './plan-rules';
import { useCreatePlanMutation, useUpdatePlanMutation } from './plans.api';

type TextKey = 'name' | 'users' | 'connections' | 'queues' | 'value' | 'trialDays';
type FlagKey = (typeof PLAN_FLAGS)[number] | 'isPublic';

/**
 * Add (plan null) or edit a plan (spec 02 "Plans", §3, §9): name, the counts (0: no limit), the monthly
 * price, the seven features (switches, all on for a new plan), whether sign-up offers it and its trial days.
 * A new plan is sent whole; an edit sends what changed. A refused save keeps the dialog open with the
 * spec's message ('Não foi possível realizar a operação. Verifique se já existe um plano com o mesmo nome...').
 */
export function PlanDialog({ plan, onClose }: { plan: PublicPlanDto | null; onClose(): void }) {
  const { t } = useTranslation();
  const formId = useId();
  const creating = plan === null;
  const form = useEntityDialog({
    initial: () => planFormOf(plan),
    validate: validatePlanForm,
    problemText: (key, problem) => t(`settings.plans.validation.${problem}`, { max: planFieldMax(key) }),
  });
  const { values, set, errorOf } = form;
  const [create, creatingCall] = useCreatePlanMutation();
  const [update, updatingCall] = useUpdatePlanMutation();

  const submit = form.handleSubmit(
    async () => {
      const body = planPayload(values);
      if (plan) {
        const changed = changedPlanFields(plan, body);
        if (Object.keys(changed).length === 0) {
          onClose();
          return;
        }
        await update({ id: plan.id, ...changed }).unwrap();
      } else {
        await create(body).unwrap();
      }
      notify.success(t('settings.plans.toasts.saved'));
      onClose();
    },
    (err, fields) => {
      if (errorCode(err) === 'ERR_PLAN_NAME_EXISTS') fields.name = errorText(err);
      if (isPlanSaveRefusal(err)) notify.errorText(t('settings.plans.toasts.saveFailed'));
      else notify.error(err);
    },
  );

  const numberField = (key: TextKey, label: string, opts: { hint?: string; decimal?: boolean } = {}) => (
    <Field.Root required invalid={!!errorOf(key)}>
      <Field.Label>{label}</Field.Label>
      <Input
        type={opts.decimal ? 'text' : 'number'}
        inputMode={opts.decimal ? 'decimal' : 'numeric'}
        min={opts.decimal ? undefined : 0}
        step={opts.decimal ? undefined : 1}
        value={values[key]}
        onChange={(e) => set(key, e.target.value)}
        autoComplete="off"
        data-testid={`plan-${key}`}
      />
      {errorOf(key) ? <Field.ErrorText>{errorOf(key)}</Field.ErrorText> : opts.hint && <Field.HelperText>{opts.hint}</Field.HelperText>}
    </Field.Root>
  );

  const flagSwitch = (key: FlagKey, label: string) => (
    <Switch.Root
      key={key}
      checked={values[key]}
      onCheckedChange={(e) => set(key, e.checked)}
      colorPalette="teal"
      data-testid={`plan-${key}`}
    >
      <Switch.HiddenInput />
      <Switch.Control>
        <Switch.Thumb />
      </Switch.Control>
      <Switch.Label>{label}</Switch.Label>
    </Switch.Root>
  );

  return (
    <Dialog.Root open onOpenChange={(e) => !e.open && onClose()} size="lg" scrollBehavior="inside">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="plan-dialog">
            <Dialog.Header>
              <Dialog.Title>{creating ? t('settings.plans.dialog.addTitle') : t('settings.plans.dialog.editTitle')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <form id={formId} onSubmit={submit} noValidate>
                <Stack gap="4">
                  <Field.Root required invalid={!!errorOf('name')}>
                    <Field.Label>{t('settings.plans.dialog.name')}</Field.Label>
                    <Input
                      value={values.name}
                      onChange={(e) => set('name', e.target.value)}
                      maxLength={200}
                      autoComplete="off"
                      data-testid="plan-name"
                    />
                    {errorOf('name') && <Field.ErrorText>{errorOf('name')}</Field.ErrorText>}
                  </Field.Root>
                  <SimpleGrid columns={{ base: 1, md: 3 }} gap="4">
                    {PLAN_COUNTS.map((key) => (
                      <Fragment key={key}>
                        {numberField(key, t(`settings.plans.dialog.${key}`), { hint: t('settings.plans.dialog.countHint') })}
                      </Fragment>
                    ))}
                  </SimpleGrid>
                  {numberField('value', t('settings.plans.dialog.value'), { hint: t('settings.plans.dialog.valueHint'), decimal: true })}
                  <Fieldset.Root>
                    <Fieldset.Legend>{t('settings.plans.dialog.features')}</Fieldset.Legend>
                    <SimpleGrid columns={{ base: 1, md: 2 }} gap="3" mt="2">
                      {PLAN_FLAGS.map((flag) => flagSwitch(flag, t(`settings.plans.flags.${flag}`)))}
                    </SimpleGrid>
                  </Fieldset.Root>
                  <SimpleGrid columns={{ base: 1, md: 2 }} gap="4" alignItems="center">
                    {flagSwitch('isPublic', t('settings.plans.dialog.isPublic'))}
                    {numberField('trialDays', t('settings.plans.dialog.trialDays'), { hint: t('settings.plans.dialog.trialDaysHint') })}
                  </SimpleGrid>
                </Stack>
              </form>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose} data-testid="plan-cancel">
                {t('common.cancel')}
              </Button>
              <Button
                type="submit"
                form={formId}
                colorPalette="teal"
                loading={creatingCall.isLoading || updatingCall.isLoading}
                data-testid="plan-save"
              >
                {creating ? t('common.add') : t('common.save')}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
