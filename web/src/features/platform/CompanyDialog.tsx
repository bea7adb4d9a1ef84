import { Button, Dialog, Field, Input, NativeSelect, Portal, SimpleGrid, Stack, Switch } from '@chakra-ui/react';
import type { CompanyDto } from '@wa/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { errorCode, errorText } from '../../app/errors';
import { notify } from '../../app/notify';
import { SelectField } from '../../app/SelectField';
import { useEntityDialog } from '../../components/use-entity-dialog';
import { useCreateCompanyMutation, useUpdateCompanyMutation } from './companies.api';
import {
  changedCompanyFields,
  companyFieldBound,
  companyFormOf,
  companyPayload,
  isCompanySaveRefusal,
  recurrenceChoices,
  validateCompanyForm,
  type CompanyFormValues,
} from './company-rules';
import { useListPlansQuery } from './plans.api';

/**
 * Add (company null) or edit a company (spec 02 "Company", §5): name, email and plan (required), phone, status,
 * campaigns, due date, recurrence and, only when adding, the first admin's password (the admin signs in with the
 * company's email). A new company is sent whole; an edit sends what changed. A refused save keeps the dialog open
 * with the spec's message ('Não foi possível realizar a operação. Verifique se já existe uma empresa com o mesmo nome...').
 */
export function CompanyDialog({ company, onClose }: { company: CompanyDto | null; onClose(): void }) {
  const { t } = useTranslation();
  const formId = useId();
  const creating = company === null;
  const form = useEntityDialog({
    initial: () => companyFormOf(company),
    validate: (v: CompanyFormValues) => validateCompanyForm(v, creating),
    problemText: (key, problem) => t(`settings.companies.validation.${problem}`, companyFieldBound(key)),
  });
  const { values, set, errorOf } = form;
  const { data: plans = [] } = useListPlansQuery();
  const [create, creatingCall] = useCreateCompanyMutation();
  const [update, updatingCall] = useUpdateCompanyMutation();

  const submit = form.handleSubmit(
    async () => {
      const body = companyPayload(values, creating);
      if (company) {
        const changed = changedCompanyFields(company, body);
        if (Object.keys(changed).length === 0) {
          onClose();
          return;
        }
        await update({ id: company.id, ...changed }).unwrap();
      } else {
        await create(body).unwrap();
      }
      notify.success(t('settings.companies.toasts.saved'));
      onClose();
    },
    (err, fields) => {
      if (errorCode(err) === 'ERR_EMAIL_ALREADY_EXISTS') fields.email = errorText(err);
      if (isCompanySaveRefusal(err)) notify.errorText(t('settings.companies.toasts.saveFailed'));
      else notify.error(err);
    },
  );

  const textField = (key: 'name' | 'email' | 'phone', opts: { required?: boolean; type?: string; maxLength: number }) => (
    <Field.Root required={opts.required} invalid={!!errorOf(key)}>
      <Field.Label>{t(`settings.companies.dialog.${key}`)}</Field.Label>
      <Input
        type={opts.type ?? 'text'}
        value={values[key]}
        onChange={(e) => set(key, e.target.value)}
        maxLength={opts.maxLength}
        autoComplete="off"
        data-testid={`company-${key}`}
      />
      {errorOf(key) && <Field.ErrorText>{errorOf(key)}</Field.ErrorText>}
    </Field.Root>
  );

  /** "Status: Ativo", "Campanhas: Habilitadas": the label says what the switch is at */
  const flagSwitch = (key: 'status' | 'campaignsEnabled', label: string, on: string, off: string) => (
    <Switch.Root checked={values[key]} onCheckedChange={(e) => set(key, e.checked)} colorPalette="teal" data-testid={`company-${key}`}>
      <Switch.HiddenInput />
      <Switch.Control>
        <Switch.Thumb />
      </Switch.Control>
      <Switch.Label>
        {label}: {values[key] ? on : off}
      </Switch.Label>
    </Switch.Root>
  );

  return (
    <Dialog.Root open onOpenChange={(e) => !e.open && onClose()} size="lg" scrollBehavior="inside">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="company-dialog">
            <Dialog.Header>
              <Dialog.Title>{creating ? t('settings.companies.dialog.addTitle') : t('settings.companies.dialog.editTitle')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <form id={formId} onSubmit={submit} noValidate>
                <Stack gap="4">
                  {textField('name', { required: true, maxLength: 100 })}
                  <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
                    {textField('email', { required: true, type: 'email', maxLength: 200 })}
                    {textField('phone', { type: 'tel', maxLength: 50 })}
                  </SimpleGrid>
                  <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
                    <SelectField
                      label={t('settings.companies.dialog.plan')}
                      value={values.planId}
                      onChange={(v) => set('planId', v)}
                      options={plans}
                      emptyLabel={t('settings.companies.dialog.choosePlan')}
                      required
                      error={errorOf('planId')}
                      testId="company-planId"
                    />
                    <Field.Root>
                      <Field.Label>{t('settings.companies.dialog.recurrence')}</Field.Label>
                      <NativeSelect.Root>
                        <NativeSelect.Field
                          value={values.recurrence}
                          onChange={(e) => set('recurrence', e.target.value)}
                          data-testid="company-recurrence"
                        >
                          {recurrenceChoices(company?.recurrence).map((r) => (
                            <option key={r} value={r}>
                              {t(`settings.companies.recurrences.${r}`)}
                            </option>
                          ))}
                        </NativeSelect.Field>
                        <NativeSelect.Indicator />
                      </NativeSelect.Root>
                    </Field.Root>
                  </SimpleGrid>
                  <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
                    <Field.Root required={!creating} invalid={!!errorOf('dueDate')}>
                      <Field.Label>{t('settings.companies.dialog.dueDate')}</Field.Label>
                      <Input
                        type="date"
                        value={values.dueDate}
                        onChange={(e) => set('dueDate', e.target.value)}
                        data-testid="company-dueDate"
                      />
                      {errorOf('dueDate') ? (
                        <Field.ErrorText>{errorOf('dueDate')}</Field.ErrorText>
                      ) : (
                        creating && <Field.HelperText>{t('settings.companies.dialog.dueDateHint')}</Field.HelperText>
                      )}
                    </Field.Root>
                    {creating && (
                      <Field.Root invalid={!!errorOf('password')}>
                        <Field.Label>{t('settings.companies.dialog.password')}</Field.Label>
                        <Input
                          type="password"
                          value={values.password}
                          onChange={(e) => set('password', e.target.value)}
                          maxLength={50}
                          autoComplete="new-password"
                          data-testid="company-password"
                        />
                        {errorOf('password') ? (
                          <Field.ErrorText>{errorOf('password')}</Field.ErrorText>
                        ) : (
                          <Field.HelperText>{t('settings.companies.dialog.passwordHint')}</Field.HelperText>
                        )}
                      </Field.Root>
                    )}
                  </SimpleGrid>
                  <SimpleGrid columns={{ base: 1, md: 2 }} gap="3">
                    {flagSwitch(
                      'status',
                      t('settings.companies.dialog.status'),
                      t('settings.companies.active'),
                      t('settings.companies.inactive'),
                    )}
                    {flagSwitch(
                      'campaignsEnabled',
                      t('settings.companies.dialog.campaignsEnabled'),
                      t('settings.companies.enabled'),
                      t('settings.companies.disabled'),
                    )}
                  </SimpleGrid>
                </Stack>
              </form>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose} data-testid="company-cancel">
                {t('common.cancel')}
              </Button>
              <Button
                type="submit"
                form={formId}
                colorPalette="teal"
                loading={creatingCall.isLoading || updatingCall.isLoading}
                data-testid="company-save"
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
