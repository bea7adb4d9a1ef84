import { Button, Dialog, Field, Input, NativeSelect, Portal, Stack } from '@chakra-ui/react';
import type { AllTicket, CreateUserRequest, Profile, UserDto } from '@wa/contracts';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLanguage, currentLanguage, LANGUAGES, type Language } from '../../app/i18n';
import { errorCode } from '../../app/errors';
import { notify } from '../../app/notify';
import { SelectField } from '../../app/SelectField';
import { selectUser, userLoaded } from '../../app/session';
import { storeUser } from '../../app/storage';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { useListWhatsappsQuery } from '../connections/connections.api';
import { useEntityDialog } from '../../components/use-entity-dialog';
import { useListQueuesQuery } from '../tickets/tickets.api';
import { QueueCheckboxes } from './QueueCheckboxes';
import { profileOptions, userFormFields, userFormOf, userPayload, validateUserForm, viewerOfUser, type UserFormValues } from './user-rules';
import { useCreateUserMutation, useUpdateUserMutation } from './users.api';

const ALL_TICKET: AllTicket[] = ['enabled', 'desabled'];

/**
 * Add (user null) or edit a user (spec 01 §2 "User dialog", §5, §6): name, email, password; for admins also
 * the profile, queues, ticket visibility (allTicket) and default connection. `ownProfile`: the account menu's
 * profile (spec 01 §2), the signed-in user's own record with their language too (kept in this browser).
 */
export function UserDialog({ user, onClose, ownProfile = false }: { user: UserDto | null; onClose(): void; ownProfile?: boolean }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const me = useAppSelector(selectUser);
  const viewer = viewerOfUser(me);
  const creating = user === null;
  const form = useEntityDialog({
    initial: () => userFormOf(user),
    validate: (v: UserFormValues) => validateUserForm(v, creating, userFormFields(viewer, user, v.password !== '')),
    problemText: (_key, problem) => t(`validation.${problem}`),
  });
  const { values, set, errorOf } = form;
  const [language, setLanguage] = useState<Language>(currentLanguage);
  const fields = userFormFields(viewer, user, values.password !== '');
  const { data: queues = [] } = useListQueuesQuery(undefined, { skip: !fields.queues });
  const { data: whatsapps = [] } = useListWhatsappsQuery(undefined, { skip: !fields.whatsapp });
  const [create, creatingCall] = useCreateUserMutation();
  const [update, updatingCall] = useUpdateUserMutation();

  const submit = form.handleSubmit(
    async () => {
      const body = userPayload(values, creating, fields);
      const saved = user ? await update({ id: user.id, ...body }).unwrap() : await create(body as CreateUserRequest).unwrap();
      if (me && saved.id === me.id) {
        // one's own account: the greeting and the menu follow at once
        const next = { ...me, ...saved, company: me.company };
        storeUser(next);
        dispatch(userLoaded(next));
      }
      if (ownProfile && language !== currentLanguage()) await changeLanguage(language);
      notify.success(t('users.toasts.saved'));
      onClose();
    },
    (err, fieldErrors) => {
      if (errorCode(err) === 'ERR_EMAIL_ALREADY_EXISTS') fieldErrors.email = t('backendErrors.ERR_EMAIL_ALREADY_EXISTS');
      notify.error(err);
    },
  );

  const textField = (
    key: 'name' | 'email' | 'password' | 'oldPassword',
    label: string,
    testId: string,
    extra: { type?: string; required?: boolean; disabled?: boolean; helper?: ReactNode } = {},
  ) => (
    <Field.Root required={extra.required ?? true} invalid={!!errorOf(key)} disabled={extra.disabled}>
      <Field.Label>{label}</Field.Label>
      <Input
        type={extra.type ?? 'text'}
        value={values[key]}
        onChange={(e) => set(key, e.target.value)}
        onBlur={form.showProblems}
        autoComplete={key === 'oldPassword' ? 'current-password' : extra.type === 'password' ? 'new-password' : 'off'}
        data-testid={testId}
      />
      {extra.helper && !errorOf(key) && <Field.HelperText>{extra.helper}</Field.HelperText>}
      {errorOf(key) && <Field.ErrorText>{errorOf(key)}</Field.ErrorText>}
    </Field.Root>
  );

  return (
    <Dialog.Root open onOpenChange={(e) => !e.open && onClose()} size="md" scrollBehavior="inside">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="user-dialog">
            <form onSubmit={submit} noValidate style={{ display: 'contents' }}>
              <Dialog.Header>
                <Dialog.Title>
                  {ownProfile ? t('users.dialog.profileTitle') : creating ? t('users.dialog.addTitle') : t('users.dialog.editTitle')}
                </Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="4">
                  {textField('name', t('users.dialog.name'), 'user-name')}
                  {textField('email', t('users.dialog.email'), 'user-email', { type: 'email', disabled: !fields.emailEditable })}
                  {textField('password', t('users.dialog.password'), 'user-password', {
                    type: 'password',
                    required: creating,
                    helper: creating ? undefined : t('users.dialog.passwordHint'),
                  })}
                  {fields.oldPassword && textField('oldPassword', t('users.dialog.oldPassword'), 'user-old-password', { type: 'password' })}
                  {ownProfile && (
                    <Field.Root>
                      <Field.Label>{t('users.dialog.language')}</Field.Label>
                      <NativeSelect.Root>
                        <NativeSelect.Field
                          value={language}
                          onChange={(e) => setLanguage(e.target.value as Language)}
                          data-testid="user-language"
                        >
                          {LANGUAGES.map((lng) => (
                            <option key={lng} value={lng}>
                              {t(`languages.${lng}`)}
                            </option>
                          ))}
                        </NativeSelect.Field>
                        <NativeSelect.Indicator />
                      </NativeSelect.Root>
                    </Field.Root>
                  )}
                  {fields.profile && (
                    <Field.Root>
                      <Field.Label>{t('users.dialog.profile')}</Field.Label>
                      <NativeSelect.Root>
                        <NativeSelect.Field
                          value={values.profile}
                          onChange={(e) => set('profile', e.target.value as Profile)}
                          data-testid="user-profile"
                        >
                          {profileOptions(user?.profile ?? 'user').map((p) => (
                            <option key={p} value={p}>
                              {t(`users.profiles.${p}`)}
                            </option>
                          ))}
                        </NativeSelect.Field>
                        <NativeSelect.Indicator />
                      </NativeSelect.Root>
                    </Field.Root>
                  )}
                  {fields.queues && (
                    <QueueCheckboxes
                      label={t('users.dialog.queues')}
                      emptyLabel={t('users.dialog.noQueues')}
                      queues={queues}
                      value={values.queueIds}
                      onChange={(ids) => set('queueIds', ids)}
                      testId="user-queues"
                    />
                  )}
                  {fields.allTicket && (
                    <Field.Root>
                      <Field.Label>{t('users.dialog.allTicket')}</Field.Label>
                      <NativeSelect.Root>
                        <NativeSelect.Field
                          value={values.allTicket}
                          onChange={(e) => set('allTicket', e.target.value as AllTicket)}
                          data-testid="user-allticket"
                        >
                          {ALL_TICKET.map((v) => (
                            <option key={v} value={v}>
                              {t(`users.allTicket.${v}`)}
                            </option>
                          ))}
                        </NativeSelect.Field>
                        <NativeSelect.Indicator />
                      </NativeSelect.Root>
                    </Field.Root>
                  )}
                  {fields.whatsapp && (
                    <SelectField
                      label={t('users.dialog.whatsapp')}
                      value={values.whatsappId}
                      onChange={(v) => set('whatsappId', v)}
                      options={whatsapps}
                      emptyLabel={t('users.dialog.noWhatsapp')}
                      testId="user-whatsapp"
                    />
                  )}
                </Stack>
              </Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" onClick={onClose}>
                  {t('common.cancel')}
                </Button>
                <Button
                  type="submit"
                  colorPalette="teal"
                  loading={creatingCall.isLoading || updatingCall.isLoading}
                  data-testid="user-save"
                >
                  {creating ? t('common.add') : t('common.save')}
                </Button>
              </Dialog.Footer>
            </form>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
