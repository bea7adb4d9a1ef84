import { Box, Button, Dialog, Field, Input, NativeSelect, Portal, Stack, Text } from '@chakra-ui/react';
import { useState, type ComponentProps, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../app/errors';
import { languageTag } from '../../app/i18n';
import { loadToaster } from '../../app/notify';
import type { CampaignDto } from '@wa/contracts';
import { CAMPAIGN_TOAST_MS, STATUS_LABELS } from './campaign-rules';

/** The campaign areas' toasts: 3 s, errors included (spec 02 §9). */
export const campaignNotify = {
  success(title: string) {
    void loadToaster().then((m) => m.toaster.create({ type: 'success', title, duration: CAMPAIGN_TOAST_MS }));
  },
  error(err: unknown) {
    void loadToaster().then((m) => m.toaster.create({ type: 'error', title: errorText(err), duration: CAMPAIGN_TOAST_MS }));
  },
};

/** An add/edit dialog's frame: title, the fields, cancel and save (a form; save submits). */
export function FormDialog(props: {
  title: string;
  testId: string;
  onSubmit(e?: FormEvent): void;
  onClose(): void;
  busy?: boolean;
  /** no save button (a read-only dialog) */
  readOnly?: boolean;
  size?: 'sm' | 'md' | 'lg' | 'xl';
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Dialog.Root open onOpenChange={(e) => !e.open && props.onClose()} size={props.size ?? 'sm'} scrollBehavior="inside">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid={props.testId}>
            <form onSubmit={props.onSubmit} noValidate style={{ display: 'contents' }}>
              <Dialog.Header>
                <Dialog.Title>{props.title}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="4">{props.children}</Stack>
              </Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" onClick={props.onClose}>
                  {props.readOnly ? t('common.close') : t('common.cancel')}
                </Button>
                {!props.readOnly && (
                  <Button type="submit" colorPalette="teal" loading={props.busy} data-testid={`${props.testId}-save`}>
                    {t('common.save')}
                  </Button>
                )}
              </Dialog.Footer>
            </form>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

/** A labelled text input with its error. */
export function TextField({
  label,
  error,
  required,
  testId,
  ...input
}: { label: string; error?: string; required?: boolean; testId: string } & ComponentProps<typeof Input>) {
  return (
    <Field.Root required={required} invalid={!!error} disabled={input.disabled}>
      <Field.Label>{label}</Field.Label>
      <Input {...input} data-testid={testId} />
      {error && <Field.ErrorText>{error}</Field.ErrorText>}
    </Field.Root>
  );
}

/** A determinate progress bar (0–100). */
export function ProgressBar({ value, testId }: { value: number; testId: string }) {
  return (
    <Box
      h="2"
      bg="bg.muted"
      borderRadius="full"
      overflow="hidden"
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value}
      data-testid={testId}
    >
      <Box h="full" bg="teal.solid" width={`${value}%`} transition="width 0.3s" />
    </Box>
  );
}

/** A report card: a label and its value. */
export function StatCard({ label, value, testId }: { label: string; value: ReactNode; testId: string }) {
  return (
    <Box bg="bg" borderWidth="1px" borderRadius="md" p="4" data-testid={testId}>
      <Text textStyle="sm" color="fg.muted">
        {label}
      </Text>
      <Text textStyle="xl" fontWeight="semibold" mt="1" data-testid={`${testId}-value`}>
        {value}
      </Text>
    </Box>
  );
}

/** A date and time written out in the app's language, or '' for none. */
export function dateTimeText(iso: string | null | undefined, language: string): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleString(languageTag(language), { dateStyle: 'short', timeStyle: 'short' });
}

/** A labelled select of text values (a list's id as text, an interval). */
export function OptionSelect(props: {
  label: string;
  value: string;
  onChange(value: string): void;
  options: ReadonlyArray<{ value: string; label: string }>;
  disabled?: boolean;
  /** the error text, shown when set */
  error?: string;
  testId: string;
}) {
  return (
    <Field.Root disabled={props.disabled} invalid={!!props.error}>
      <Field.Label>{props.label}</Field.Label>
      <NativeSelect.Root disabled={props.disabled}>
        <NativeSelect.Field value={props.value} onChange={(e) => props.onChange(e.target.value)} data-testid={props.testId}>
          {props.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
      {props.error && <Field.ErrorText>{props.error}</Field.ErrorText>}
    </Field.Root>
  );
}

/** A campaign's status as the spec writes it, and under it why the server stopped it. */
export function CampaignStatusText({ campaign }: { campaign: Pick<CampaignDto, 'status' | 'statusReason'> }) {
  return (
    <>
      <Text data-testid="campaign-status" data-status={campaign.status}>
        {STATUS_LABELS[campaign.status] ?? campaign.status}
      </Text>
      {campaign.statusReason && (
        <Text textStyle="xs" color="fg.error" data-testid="campaign-status-reason">
          {campaign.statusReason}
        </Text>
      )}
    </>
  );
}

/** A delete behind a confirmation, with the campaign areas' 3 s toasts (app/list-page's useConfirmedDelete otherwise). */
export function useCampaignDelete<T extends { id: number }>(remove: (id: number) => { unwrap(): Promise<unknown> }, doneText: string) {
  const [deleting, setDeleting] = useState<T | null>(null);
  async function confirm() {
    if (!deleting) return;
    try {
      await remove(deleting.id).unwrap();
      campaignNotify.success(doneText);
      setDeleting(null);
    } catch (err) {
      campaignNotify.error(err);
    }
  }
  return { deleting, setDeleting, confirm };
}
