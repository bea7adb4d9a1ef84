import { Box, Button, Checkbox, Dialog, Field, Input, NativeSelect, Portal, Stack, Switch, Tabs, Text, Textarea } from '@chakra-ui/react';
import type { ConnectionProviderKind, WhatsappDto } from '@wa/contracts';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../app/notify';
import { campaignsShown, hasPlanFlag } from '../../app/plan-flags';
import { SelectField } from '../../app/SelectField';
import { selectUser } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { useAllPrompts } from '../prompts/prompts.api';
import { useListQueuesQuery } from '../tickets/tickets.api';
import {
  CHATBOT_NUMBER_FIELDS,
  CHATBOT_TEXT_FIELDS,
  chatbotFormOf,
  chatbotPayload,
  validateChatbotForm,
  type ChatbotFormValues,
  type ChatbotNumberField,
  type ChatbotTextField,
} from './connection-chatbot';
import { validateConnectionName } from '../../components/form-rules';
import { useEntityDialog } from '../../components/use-entity-dialog';
import { campaignPaceFormOf, campaignPacePayload, validateCampaignPace, type CampaignPaceFormValues } from './connection-campaigns';
import { useCreateWhatsappMutation, useUpdateWhatsappMutation } from './connections.api';

/** A random API token (32 hex characters). */
function newApiToken(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Longest text the server takes (connections.dto.ts TEXT_MAX). */
const TEXT_MAX = 10_000;

type ConnectionDialogTab = 'general' | 'chatbot' | 'campaigns';

/** The form: the general tab's fields and the chatbot tab's (connection-chatbot.ts). */
type ConnectionFormValues = {
  name: string;
  isDefault: boolean;
  greetingMessage: string;
  token: string;
  queueIds: number[];
  channel: ConnectionProviderKind;
} & ChatbotFormValues &
  CampaignPaceFormValues;

function connectionFormOf(whatsapp: WhatsappDto | null): ConnectionFormValues {
  return {
    name: whatsapp?.name ?? '',
    isDefault: whatsapp?.isDefault ?? false,
    greetingMessage: whatsapp?.greetingMessage ?? '',
    token: whatsapp?.token ?? '',
    queueIds: whatsapp?.queueIds ?? whatsapp?.queues?.map((q) => q.id) ?? [],
    channel: whatsapp?.channel ?? 'baileys',
    ...chatbotFormOf(whatsapp),
    ...campaignPaceFormOf(whatsapp),
  };
}

/** The name (2 to 50 characters), the chatbot's numbers and the campaign pace. */
const validateConnectionForm = (v: ConnectionFormValues) => ({
  name: validateConnectionName(v.name) ?? undefined,
  ...validateChatbotForm(v),
  ...validateCampaignPace(v),
});

/**
 * Add (whatsapp null) or edit a connection. General tab: name, default flag, greeting, API token, queues, and
 * the kind when adding. Chatbot tab (as Whaticket's): the completion, out-of-hours, rating and inactivity
 * messages, when open chats close and when they go to the transfer queue, how often and how many times the
 * chatbot is sent, and the AI prompt when the plan has it. Every field goes with the connection when it is saved.
 */
export function ConnectionDialog({ whatsapp, onClose }: { whatsapp: WhatsappDto | null; onClose(): void }) {
  const { t } = useTranslation();
  const formId = useId();
  const editing = !!whatsapp;
  const { data: queues = [] } = useListQueuesQuery();
  // the prompt picker comes with the plan's OpenAI feature, as the queue dialog's does (spec 02 §6)
  const user = useAppSelector(selectUser);
  const withPrompt = hasPlanFlag(user, 'useOpenAi');
  const prompts = useAllPrompts(withPrompt);
  // the campaign tab (daily cap, warm-up, sending window) comes with the campaign area (the cshow rule)
  const withCampaigns = campaignsShown(user);
  const [create, creating] = useCreateWhatsappMutation();
  const [update, updating] = useUpdateWhatsappMutation();
  // the rules' texts show once a field is left or the form sent; the server's field errors until the field changes
  const form = useEntityDialog({
    initial: () => connectionFormOf(whatsapp),
    validate: validateConnectionForm,
    problemText: (_key, p) => t(`validation.${p}`),
  });
  const { values, set, errorOf } = form;
  const [tab, setTab] = useState<ConnectionDialogTab>('general');

  const save = form.handleSubmit(async (v) => {
    const body = {
      name: v.name.trim(),
      isDefault: v.isDefault,
      greetingMessage: v.greetingMessage,
      queueIds: v.queueIds,
      token: v.token.trim() || null,
      ...chatbotPayload(v, withPrompt),
      ...(withCampaigns ? campaignPacePayload(v) : {}),
    };
    if (whatsapp) await update({ id: whatsapp.id, ...body }).unwrap();
    else await create({ ...body, channel: v.channel }).unwrap();
    notify.success(t('connections.toasts.saved'));
    onClose();
  });

  /** the tab with the first error comes to the front */
  function submit(e: FormEvent) {
    const { name: nameError, campaignDailyLimit, campaignHours, ...chatbotErrors } = form.errors;
    if (nameError) setTab('general');
    else if (Object.values(chatbotErrors).some(Boolean)) setTab('chatbot');
    else if (withCampaigns && (campaignDailyLimit || campaignHours)) setTab('campaigns');
    return save(e);
  }

  const testIdOf = (key: string) => `connection-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

  const textField = (key: ChatbotTextField) => (
    <Field.Root key={key} invalid={!!errorOf(key)}>
      <Field.Label>{t(`connections.dialog.${key}`)}</Field.Label>
      <Textarea rows={2} value={values[key]} onChange={(e) => set(key, e.target.value)} maxLength={TEXT_MAX} data-testid={testIdOf(key)} />
      {errorOf(key) && <Field.ErrorText>{errorOf(key)}</Field.ErrorText>}
    </Field.Root>
  );

  const numberField = (key: ChatbotNumberField) => {
    const problem = errorOf(key);
    return (
      <Field.Root key={key} invalid={!!problem}>
        <Field.Label>{t(`connections.dialog.${key}`)}</Field.Label>
        <Input
          type="number"
          inputMode="numeric"
          min={0}
          step={1}
          value={values[key]}
          onChange={(e) => set(key, e.target.value)}
          onBlur={form.showProblems}
          data-testid={testIdOf(key)}
        />
        {problem ? (
          <Field.ErrorText>{problem}</Field.ErrorText>
        ) : (
          <Field.HelperText>{t(`connections.dialog.hints.${key}`)}</Field.HelperText>
        )}
      </Field.Root>
    );
  };

  return (
    <Dialog.Root open onOpenChange={(e) => !e.open && onClose()} size="md" scrollBehavior="inside">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="connection-dialog">
            <Dialog.Header>
              <Dialog.Title>{editing ? t('connections.dialog.editTitle') : t('connections.dialog.addTitle')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <form id={formId} onSubmit={submit} noValidate>
                <Tabs.Root value={tab} onValueChange={(e) => setTab(e.value as ConnectionDialogTab)} size="sm" variant="line">
                  <Tabs.List mb="4">
                    <Tabs.Trigger value="general" data-testid="connection-tab-general">
                      {t('connections.dialog.tabs.general')}
                    </Tabs.Trigger>
                    <Tabs.Trigger value="chatbot" data-testid="connection-tab-chatbot">
                      {t('connections.dialog.tabs.chatbot')}
                    </Tabs.Trigger>
                    {withCampaigns && (
                      <Tabs.Trigger value="campaigns" data-testid="connection-tab-campaigns">
                        {t('connections.dialog.tabs.campaigns')}
                      </Tabs.Trigger>
                    )}
                  </Tabs.List>
                  <Tabs.Content value="general">
                    <Stack gap="4">
                      <Field.Root required invalid={!!errorOf('name')}>
                        <Field.Label>{t('connections.dialog.name')}</Field.Label>
                        <Input
                          value={values.name}
                          onChange={(e) => set('name', e.target.value)}
                          onBlur={form.showProblems}
                          autoFocus
                          data-testid="connection-name"
                        />
                        {errorOf('name') && <Field.ErrorText>{errorOf('name')}</Field.ErrorText>}
                      </Field.Root>
                      {!editing && (
                        <Field.Root>
                          <Field.Label>{t('connections.dialog.channel')}</Field.Label>
                          <NativeSelect.Root>
                            <NativeSelect.Field
                              value={values.channel}
                              onChange={(e) => set('channel', e.target.value as ConnectionProviderKind)}
                              data-testid="connection-channel"
                            >
                              <option value="baileys">{t('connections.dialog.channels.baileys')}</option>
                              <option value="sandbox">{t('connections.dialog.channels.sandbox')}</option>
                            </NativeSelect.Field>
                            <NativeSelect.Indicator />
                          </NativeSelect.Root>
                        </Field.Root>
                      )}
                      <Switch.Root
                        checked={values.isDefault}
                        onCheckedChange={(e) => set('isDefault', e.checked)}
                        data-testid="connection-default"
                      >
                        <Switch.HiddenInput />
                        <Switch.Control>
                          <Switch.Thumb />
                        </Switch.Control>
                        <Switch.Label>{t('connections.dialog.default')}</Switch.Label>
                      </Switch.Root>
                      <Field.Root invalid={!!errorOf('greetingMessage')}>
                        <Field.Label>{t('connections.dialog.greetingMessage')}</Field.Label>
                        <Textarea rows={3} value={values.greetingMessage} onChange={(e) => set('greetingMessage', e.target.value)} />
                        {errorOf('greetingMessage') && <Field.ErrorText>{errorOf('greetingMessage')}</Field.ErrorText>}
                      </Field.Root>
                      <Field.Root invalid={!!errorOf('token')}>
                        <Field.Label>{t('connections.dialog.token')}</Field.Label>
                        <Stack direction="row" gap="2">
                          <Input
                            value={values.token}
                            onChange={(e) => set('token', e.target.value)}
                            maxLength={200}
                            autoComplete="off"
                            data-testid="connection-token"
                          />
                          <Button variant="outline" onClick={() => set('token', newApiToken())} data-testid="connection-token-generate">
                            {t('connections.dialog.generateToken')}
                          </Button>
                        </Stack>
                        {errorOf('token') ? (
                          <Field.ErrorText>{errorOf('token')}</Field.ErrorText>
                        ) : (
                          <Field.HelperText>{t('connections.dialog.tokenHelp')}</Field.HelperText>
                        )}
                      </Field.Root>
                      {queues.length > 0 && (
                        <Box>
                          <Text textStyle="sm" fontWeight="medium" mb="2">
                            {t('connections.dialog.queues')}
                          </Text>
                          <Stack gap="1.5">
                            {queues.map((q) => (
                              <Checkbox.Root
                                key={q.id}
                                size="sm"
                                checked={values.queueIds.includes(q.id)}
                                onCheckedChange={(e) =>
                                  set('queueIds', e.checked ? [...values.queueIds, q.id] : values.queueIds.filter((id) => id !== q.id))
                                }
                              >
                                <Checkbox.HiddenInput />
                                <Checkbox.Control />
                                <Checkbox.Label>
                                  <Box
                                    as="span"
                                    display="inline-block"
                                    w="2.5"
                                    h="2.5"
                                    borderRadius="full"
                                    mr="2"
                                    style={{ background: q.color }}
                                  />
                                  {q.name}
                                </Checkbox.Label>
                              </Checkbox.Root>
                            ))}
                          </Stack>
                        </Box>
                      )}
                    </Stack>
                  </Tabs.Content>
                  <Tabs.Content value="chatbot">
                    <Stack gap="4">
                      {CHATBOT_TEXT_FIELDS.map((key) => textField(key))}
                      {CHATBOT_NUMBER_FIELDS.map((key) => numberField(key))}
                      <Field.Root>
                        <Field.Label>{t('connections.dialog.transferQueueId')}</Field.Label>
                        <NativeSelect.Root>
                          <NativeSelect.Field
                            value={values.transferQueueId}
                            onChange={(e) => set('transferQueueId', e.target.value ? Number(e.target.value) : '')}
                            data-testid="connection-transfer-queue"
                          >
                            <option value="">{t('connections.dialog.noTransferQueue')}</option>
                            {queues.map((q) => (
                              <option key={q.id} value={q.id}>
                                {q.name}
                              </option>
                            ))}
                          </NativeSelect.Field>
                          <NativeSelect.Indicator />
                        </NativeSelect.Root>
                      </Field.Root>
                      {withPrompt && (
                        <SelectField
                          label={t('connections.dialog.prompt')}
                          value={values.promptId}
                          onChange={(v) => set('promptId', v)}
                          options={prompts}
                          emptyLabel={t('connections.dialog.noPrompt')}
                          testId="connection-prompt"
                        />
                      )}
                    </Stack>
                  </Tabs.Content>
                  {withCampaigns && (
                    <Tabs.Content value="campaigns">
                      <Stack gap="4">
                        <Field.Root invalid={!!errorOf('campaignDailyLimit')}>
                          <Field.Label>{t('connections.dialog.campaignDailyLimit')}</Field.Label>
                          <Input
                            type="number"
                            inputMode="numeric"
                            min={0}
                            step={1}
                            value={values.campaignDailyLimit}
                            onChange={(e) => set('campaignDailyLimit', e.target.value)}
                            data-testid="connection-campaign-daily-limit"
                          />
                          {errorOf('campaignDailyLimit') ? (
                            <Field.ErrorText>{errorOf('campaignDailyLimit')}</Field.ErrorText>
                          ) : (
                            <Field.HelperText>{t('connections.dialog.hints.campaignDailyLimit')}</Field.HelperText>
                          )}
                        </Field.Root>
                        <Switch.Root
                          checked={values.campaignWarmup}
                          onCheckedChange={(e) => set('campaignWarmup', e.checked)}
                          data-testid="connection-campaign-warmup"
                        >
                          <Switch.HiddenInput />
                          <Switch.Control>
                            <Switch.Thumb />
                          </Switch.Control>
                          <Switch.Label>{t('connections.dialog.campaignWarmup')}</Switch.Label>
                        </Switch.Root>
                        <Field.Root invalid={!!errorOf('campaignHours')}>
                          <Field.Label>{t('connections.dialog.campaignHours')}</Field.Label>
                          <Input
                            value={values.campaignHours}
                            placeholder="08:00-20:00"
                            onChange={(e) => set('campaignHours', e.target.value)}
                            data-testid="connection-campaign-hours"
                          />
                          {errorOf('campaignHours') ? (
                            <Field.ErrorText>{errorOf('campaignHours')}</Field.ErrorText>
                          ) : (
                            <Field.HelperText>{t('connections.dialog.hints.campaignHours')}</Field.HelperText>
                          )}
                        </Field.Root>
                      </Stack>
                    </Tabs.Content>
                  )}
                </Tabs.Root>
              </form>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose}>
                {t('common.cancel')}
              </Button>
              <Button
                type="submit"
                form={formId}
                colorPalette="teal"
                loading={creating.isLoading || updating.isLoading}
                data-testid="connection-save"
              >
                {editing ? t('common.save') : t('common.add')}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
