import { Button, Field, HStack, Switch, Tabs, Text, Textarea } from '@chakra-ui/react';
import type { CampaignDto } from '@wa/contracts';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdAttachFile, MdDelete } from 'react-icons/md';
import { useAppDispatch } from '../../app/store';
import { validateConnectionName } from '../../components/form-rules';
import { useEntityDialog } from '../../components/use-entity-dialog';
import { useListWhatsappsQuery } from '../connections/connections.api';
import { useListTagsQuery } from '../tickets/tickets.api';
import { campaignEditability, fromLocalInput, MESSAGE_SLOTS, parseCampaignSettings, toLocalInput, variableHints } from './campaign-rules';
import {
  refreshCampaigns,
  useCampaignSettingsQuery,
  useContactListOptionsQuery,
  useDeleteCampaignMediaMutation,
  useFileListOptionsQuery,
  useSaveCampaignMutation,
  useUploadCampaignMediaMutation,
  type CampaignRequest,
} from './campaigns.api';
import { campaignNotify, FormDialog, OptionSelect, TextField } from './ui';

/** The tag choice meaning "no tag" (spec 02 §3: tagListId defaults to 'Nenhuma'). */
const NO_TAG = 'Nenhuma';

type MessageKey = `message${1 | 2 | 3 | 4 | 5}` | `confirmationMessage${1 | 2 | 3 | 4 | 5}`;

interface CampaignFormValues extends Record<MessageKey, string> {
  name: string;
  contactListId: string;
  tagListId: string;
  whatsappId: string;
  fileListId: string;
  scheduledAt: string;
  confirmation: boolean;
}

const MESSAGE_KEYS = MESSAGE_SLOTS.flatMap((n) => [`message${n}`, `confirmationMessage${n}`] as MessageKey[]);

function initialValues(c: CampaignDto | null): CampaignFormValues {
  const messages = Object.fromEntries(MESSAGE_KEYS.map((k) => [k, c?.[k] ?? ''])) as Record<MessageKey, string>;
  return {
    ...messages,
    name: c?.name ?? '',
    contactListId: c?.contactListId ? String(c.contactListId) : '',
    tagListId: c?.tagListId || NO_TAG,
    whatsappId: c?.whatsappId ? String(c.whatsappId) : '',
    fileListId: c?.fileListId ? String(c.fileListId) : '',
    scheduledAt: toLocalInput(c?.scheduledAt),
    confirmation: c?.confirmation ?? false,
  };
}

const idOrNull = (v: string) => (v ? Number(v) : null);

/**
 * Add (null) or edit a campaign (spec 02 §2): name, contact list, tag list, connection, schedule, file list,
 * confirmation, the tabs Msg.1 to Msg.5 (and their confirmation texts), the attachment, the variables hint.
 * Read-only when the campaign is not editable (§4); only the messages when CANCELADA.
 */
export function CampaignDialog({ record, onClose }: { record: CampaignDto | null; onClose(): void }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const editable = campaignEditability(record);
  const lists = useContactListOptionsQuery().data ?? [];
  const tags = useListTagsQuery().data ?? [];
  const connections = useListWhatsappsQuery().data ?? [];
  const fileLists = useFileListOptionsQuery().data ?? [];
  const settings = parseCampaignSettings(useCampaignSettingsQuery().data);
  const [save, saving] = useSaveCampaignMutation();
  const [upload, uploading] = useUploadCampaignMediaMutation();
  const [unlink] = useDeleteCampaignMediaMutation();
  const [tab, setTab] = useState('1');
  const [file, setFile] = useState<File | null>(null);
  const [dropMedia, setDropMedia] = useState(false);
  const [savedId, setSavedId] = useState<number | undefined>(record?.id);
  const fileInput = useRef<HTMLInputElement>(null);
  const form = useEntityDialog({
    initial: () => initialValues(record),
    validate: (v: CampaignFormValues) => ({ name: editable.all ? validateConnectionName(v.name) : null }),
    problemText: (_key, problem) => t(`validation.${problem}`),
  });
  const { values, set } = form;
  const attachment = file?.name ?? (!dropMedia && record?.mediaName) ?? null;

  const submit = form.handleSubmit(
    async (v) => {
      const messages = Object.fromEntries(MESSAGE_KEYS.map((k) => [k, v[k]])) as Pick<CampaignRequest, MessageKey>;
      const body: CampaignRequest = {
        ...messages,
        name: v.name.trim(),
        contactListId: idOrNull(v.contactListId),
        tagListId: v.tagListId || NO_TAG,
        whatsappId: idOrNull(v.whatsappId),
        fileListId: idOrNull(v.fileListId),
        scheduledAt: fromLocalInput(v.scheduledAt),
        confirmation: v.confirmation,
      };
      // a cancelled campaign only takes its messages (spec 02 §4)
      const saved = await save(editable.all ? { id: savedId, ...body } : { id: savedId, ...messages }).unwrap();
      setSavedId(saved.id);
      if (editable.all && file) await upload({ id: saved.id, file }).unwrap();
      else if (editable.all && dropMedia && record?.mediaPath) await unlink(saved.id).unwrap();
      dispatch(refreshCampaigns());
      campaignNotify.success(t('campaigns.saved'));
      onClose();
    },
    (err) => campaignNotify.error(err),
  );

  const locked = !editable.all;
  const select = (key: 'contactListId' | 'whatsappId' | 'fileListId' | 'tagListId', options: Array<{ value: string; label: string }>) => (
    <OptionSelect
      label={t(`campaigns.${key}`)}
      value={values[key]}
      onChange={(value) => set(key, value)}
      options={options}
      disabled={locked}
      error={form.errorOf(key)}
      testId={`campaign-${key}`}
    />
  );
  const none = { value: '', label: t('campaigns.none') };

  return (
    <FormDialog
      title={record ? (editable.messages ? t('campaigns.edit') : t('campaigns.view')) : t('campaigns.add')}
      testId="campaign-dialog"
      size="xl"
      readOnly={!editable.messages}
      busy={saving.isLoading || uploading.isLoading}
      onSubmit={(e) => void submit(e)}
      onClose={onClose}
    >
      {!editable.messages && (
        <Text textStyle="sm" color="fg.muted" data-testid="campaign-read-only">
          {t('campaigns.readOnly')}
        </Text>
      )}
      <TextField
        label={t('campaigns.name')}
        required
        value={values.name}
        disabled={locked}
        onChange={(e) => set('name', e.target.value)}
        // an empty field left shows nothing yet: a problem appearing then would move the buttons under the pointer
        onBlur={() => values.name && form.touch('name')}
        error={form.errorOf('name')}
        testId="campaign-name"
      />
      <HStack gap="3" align="start" flexWrap={{ base: 'wrap', md: 'nowrap' }}>
        {select('contactListId', [none, ...lists.map((l) => ({ value: String(l.id), label: l.name }))])}
        {select('tagListId', [{ value: NO_TAG, label: NO_TAG }, ...tags.map((tag) => ({ value: String(tag.id), label: tag.name }))])}
      </HStack>
      <HStack gap="3" align="start" flexWrap={{ base: 'wrap', md: 'nowrap' }}>
        {select('whatsappId', [none, ...connections.map((c) => ({ value: String(c.id), label: c.name }))])}
        {select('fileListId', [none, ...fileLists.map((f) => ({ value: String(f.id), label: f.name }))])}
      </HStack>
      <HStack gap="3" align="end">
        <TextField
          label={t('campaigns.scheduledAt')}
          type="datetime-local"
          value={values.scheduledAt}
          disabled={locked}
          onChange={(e) => set('scheduledAt', e.target.value)}
          error={form.errorOf('scheduledAt')}
          testId="campaign-scheduledAt"
        />
        <Switch.Root
          checked={values.confirmation}
          disabled={locked}
          onCheckedChange={(e) => set('confirmation', e.checked)}
          colorPalette="teal"
          minW="40"
          pb="2"
          data-testid="campaign-confirmation"
        >
          <Switch.HiddenInput />
          <Switch.Control>
            <Switch.Thumb />
          </Switch.Control>
          <Switch.Label>{t('campaigns.confirmation')}</Switch.Label>
        </Switch.Root>
      </HStack>
      <Tabs.Root value={tab} onValueChange={(e) => setTab(e.value)} size="sm" variant="line">
        <Tabs.List>
          {MESSAGE_SLOTS.map((n) => (
            <Tabs.Trigger key={n} value={String(n)} data-testid={`campaign-tab-${n}`}>
              {`Msg.${n}`}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {MESSAGE_SLOTS.map((n) => (
          <Tabs.Content key={n} value={String(n)}>
            <Field.Root disabled={!editable.messages} invalid={!!form.errorOf(`message${n}`)}>
              <Field.Label>{t('campaigns.message', { n })}</Field.Label>
              <Textarea
                rows={4}
                value={values[`message${n}`]}
                onChange={(e) => set(`message${n}`, e.target.value)}
                data-testid={`campaign-message${n}`}
              />
              {form.errorOf(`message${n}`) && <Field.ErrorText>{form.errorOf(`message${n}`)}</Field.ErrorText>}
            </Field.Root>
            {values.confirmation && (
              <Field.Root disabled={!editable.messages} mt="3" invalid={!!form.errorOf(`confirmationMessage${n}`)}>
                <Field.Label>{t('campaigns.confirmationMessage', { n })}</Field.Label>
                <Textarea
                  rows={3}
                  value={values[`confirmationMessage${n}`]}
                  onChange={(e) => set(`confirmationMessage${n}`, e.target.value)}
                  data-testid={`campaign-confirmationMessage${n}`}
                />
                {form.errorOf(`confirmationMessage${n}`) && <Field.ErrorText>{form.errorOf(`confirmationMessage${n}`)}</Field.ErrorText>}
              </Field.Root>
            )}
          </Tabs.Content>
        ))}
      </Tabs.Root>
      <Text textStyle="xs" color="fg.muted" data-testid="campaign-variables">
        {t('campaigns.variablesHint', { variables: variableHints(settings.variables).join(', ') })}
      </Text>
      <HStack>
        <input ref={fileInput} type="file" hidden onChange={(e) => setFile(e.target.files?.[0] ?? null)} data-testid="campaign-file" />
        <Button size="sm" variant="outline" disabled={locked} onClick={() => fileInput.current?.click()}>
          <MdAttachFile />
          {t('campaigns.attach')}
        </Button>
        <Text textStyle="sm" flex="1" truncate data-testid="campaign-attachment">
          {attachment ?? t('campaigns.noAttachment')}
        </Text>
        {attachment && !locked && (
          <Button
            size="xs"
            variant="ghost"
            colorPalette="red"
            aria-label={t('common.delete')}
            onClick={() => {
              setFile(null);
              setDropMedia(true);
            }}
          >
            <MdDelete />
          </Button>
        )}
      </HStack>
    </FormDialog>
  );
}
