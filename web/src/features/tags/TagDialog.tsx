import { Box, Button, chakra, Dialog, Field, HStack, Input, Portal, Stack, Switch, Text, Wrap } from '@chakra-ui/react';
import type { TagDto } from '@wa/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../app/notify';
import { selectUser } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { useEntityDialog } from '../../components/use-entity-dialog';
import { mayMarkKanban, nativeColor, TAG_PALETTE, tagFormOf, tagPayload, validateTagForm } from './tag-rules';
import { useCreateTagMutation, useUpdateTagMutation } from './tags.api';

/**
 * Add (tag null) or edit a tag (spec 02 "Tags", §5, §6): the name (required, at least 3 characters:
 * 'Obrigatório', 'Mensagem muito curta'), its colour (a swatch of the palette, the colour input or its
 * code) and, for admins and supervisors only, the Kanban switch (the tag becomes a lane of the board).
 */
export function TagDialog({ tag, onClose }: { tag: TagDto | null; onClose(): void }) {
  const { t } = useTranslation();
  const formId = useId();
  const canMarkKanban = mayMarkKanban(useAppSelector(selectUser));
  const form = useEntityDialog({
    initial: () => tagFormOf(tag),
    validate: validateTagForm,
    problemText: (_key, problem) => t(`tags.validation.${problem}`),
  });
  const { values, set, touch, errorOf } = form;
  const [create, creating] = useCreateTagMutation();
  const [update, updating] = useUpdateTagMutation();

  const submit = form.handleSubmit(async () => {
    const body = tagPayload(values, canMarkKanban);
    if (tag) await update({ id: tag.id, ...body }).unwrap();
    else await create(body).unwrap();
    notify.success(t('tags.toasts.saved'));
    onClose();
  });

  const current = values.color.trim().toLowerCase();

  return (
    <Dialog.Root open onOpenChange={(e) => !e.open && onClose()} size="md">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="tag-dialog">
            <Dialog.Header>
              <Dialog.Title>{tag ? t('tags.dialog.editTitle') : t('tags.dialog.addTitle')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <form id={formId} onSubmit={submit} noValidate>
                <Stack gap="4">
                  <Field.Root required invalid={!!errorOf('name')}>
                    <Field.Label>{t('tags.dialog.name')}</Field.Label>
                    <Input
                      value={values.name}
                      onChange={(e) => set('name', e.target.value)}
                      onBlur={() => touch('name')}
                      maxLength={100}
                      autoComplete="off"
                      autoFocus
                      data-testid="tag-name"
                    />
                    {errorOf('name') && <Field.ErrorText data-testid="tag-name-error">{errorOf('name')}</Field.ErrorText>}
                  </Field.Root>
                  <Field.Root invalid={!!errorOf('color')}>
                    <Field.Label>{t('tags.dialog.color')}</Field.Label>
                    <Wrap gap="2" role="group" aria-label={t('tags.dialog.color')} data-testid="tag-palette">
                      {TAG_PALETTE.map((c) => (
                        <chakra.button
                          key={c}
                          type="button"
                          w="7"
                          h="7"
                          borderRadius="full"
                          borderWidth="2px"
                          borderColor={current === c.toLowerCase() ? 'fg' : 'transparent'}
                          outline="1px solid"
                          outlineColor="border"
                          cursor="pointer"
                          style={{ background: c }}
                          aria-label={t('tags.dialog.swatch', { color: c })}
                          aria-pressed={current === c.toLowerCase()}
                          onClick={() => set('color', c)}
                          data-testid={`tag-swatch-${c.slice(1)}`}
                        />
                      ))}
                    </Wrap>
                    <HStack w="full" gap="2" mt="2">
                      <chakra.input
                        type="color"
                        value={nativeColor(values.color)}
                        onChange={(e) => set('color', e.target.value)}
                        aria-label={t('tags.dialog.colorPicker')}
                        w="10"
                        h="10"
                        p="0.5"
                        flexShrink={0}
                        bg="transparent"
                        borderWidth="1px"
                        borderRadius="l2"
                        cursor="pointer"
                        data-testid="tag-color-picker"
                      />
                      <Input
                        value={values.color}
                        onChange={(e) => set('color', e.target.value)}
                        onBlur={() => touch('color')}
                        placeholder="#A4CCCC"
                        maxLength={20}
                        autoComplete="off"
                        data-testid="tag-color"
                      />
                      <Box
                        w="10"
                        h="10"
                        flexShrink={0}
                        borderRadius="l2"
                        borderWidth="1px"
                        style={{ background: values.color.trim() || undefined }}
                        aria-hidden
                      />
                    </HStack>
                    {errorOf('color') && <Field.ErrorText>{errorOf('color')}</Field.ErrorText>}
                  </Field.Root>
                  {canMarkKanban && (
                    <Stack gap="1">
                      <Switch.Root
                        checked={values.kanban}
                        onCheckedChange={(e) => set('kanban', e.checked)}
                        colorPalette="teal"
                        data-testid="tag-kanban"
                      >
                        <Switch.HiddenInput />
                        <Switch.Control>
                          <Switch.Thumb />
                        </Switch.Control>
                        <Switch.Label>{t('tags.dialog.kanban')}</Switch.Label>
                      </Switch.Root>
                      <Text textStyle="xs" color="fg.muted">
                        {t('tags.dialog.kanbanHint')}
                      </Text>
                    </Stack>
                  )}
                </Stack>
              </form>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose} data-testid="tag-cancel">
                {t('common.cancel')}
              </Button>
              <Button
                type="submit"
                form={formId}
                colorPalette="teal"
                loading={creating.isLoading || updating.isLoading}
                data-testid="tag-save"
              >
                {tag ? t('common.save') : t('common.add')}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
