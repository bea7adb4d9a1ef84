import { Box, Button, Center, Code, Flex, Heading, Spinner, Table, Text } from '@chakra-ui/react';
import type { HelpDto } from '@wa/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdAdd } from 'react-icons/md';
import { RowActions, useConfirmedDelete } from '../../app/list-page';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useDeleteHelpMutation, useListAllHelpsQuery } from '../helps/helps.api';
import { HelpDialog } from './HelpDialog';

/**
 * The Ajuda tab of /settings (spec 02 "Helps", super users only): every help video (`GET /helps/list`) with its
 * title, video code and description; add, edit, and delete behind a confirmation. Everyone watches them on /helps.
 */
export function HelpsTab() {
  const { t } = useTranslation();
  const { data: helps = [], isLoading, isError } = useListAllHelpsQuery();
  const [editing, setEditing] = useState<HelpDto | null | undefined>(undefined);
  const [remove, removing] = useDeleteHelpMutation();
  // spec 02 §8: a refused delete (already gone, not allowed...) says 'Não foi possível realizar a operação.'.
  // useConfirmedDelete toasts what is thrown: a text shows as is.
  const removeWithMessage = (id: number) => ({
    unwrap: () =>
      remove(id)
        .unwrap()
        .catch(() => {
          throw t('settings.helps.toasts.deleteFailed');
        }),
  });
  const {
    deleting,
    setDeleting,
    confirm: confirmDelete,
  } = useConfirmedDelete<HelpDto>(removeWithMessage, t('settings.helps.toasts.deleted'));

  return (
    <Box data-testid="settings-helps">
      <Flex gap="3" mb="4" align="center" wrap="wrap">
        <Heading size="md" flex="1">
          {t('settings.helps.title')}{' '}
          <Text as="span" color="fg.muted" textStyle="sm" data-testid="helps-count">
            ({helps.length})
          </Text>
        </Heading>
        <Button size="sm" colorPalette="teal" onClick={() => setEditing(null)} data-testid="helps-add">
          <MdAdd />
          {t('settings.helps.add')}
        </Button>
      </Flex>
      {isLoading && (
        <Center py="8">
          <Spinner />
        </Center>
      )}
      {isError && (
        <Center py="8" color="fg.error" data-testid="helps-error">
          {t('settings.helps.loadFailed')}
        </Center>
      )}
      {!isLoading && !isError && (
        <Box borderRadius="md" borderWidth="1px" overflowX="auto">
          <Table.Root size="sm" data-testid="helps-table">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>{t('settings.helps.columns.title')}</Table.ColumnHeader>
                <Table.ColumnHeader>{t('settings.helps.columns.video')}</Table.ColumnHeader>
                <Table.ColumnHeader>{t('settings.helps.columns.description')}</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="center">{t('settings.helps.columns.actions')}</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {helps.map((h) => (
                <Table.Row key={h.id} data-testid={`help-row-${h.id}`}>
                  <Table.Cell fontWeight="medium" data-testid="help-title-cell">
                    {h.title}
                  </Table.Cell>
                  <Table.Cell whiteSpace="nowrap" data-testid="help-video-cell">
                    <Code size="sm">{h.video}</Code>
                  </Table.Cell>
                  <Table.Cell maxW="md" data-testid="help-description-cell">
                    <Text lineClamp={2} title={h.description || undefined}>
                      {h.description}
                    </Text>
                  </Table.Cell>
                  <Table.Cell textAlign="center">
                    <RowActions onEdit={() => setEditing(h)} onDelete={() => setDeleting(h)} testId="help" />
                  </Table.Cell>
                </Table.Row>
              ))}
              {helps.length === 0 && (
                <Table.Row>
                  <Table.Cell colSpan={4} textAlign="center" color="fg.muted" py="6" data-testid="helps-empty">
                    {t('common.noRecords')}
                  </Table.Cell>
                </Table.Row>
              )}
            </Table.Body>
          </Table.Root>
        </Box>
      )}
      {editing !== undefined && <HelpDialog key={editing?.id ?? 'new'} help={editing} onClose={() => setEditing(undefined)} />}
      <ConfirmDialog
        open={!!deleting}
        title={t('settings.helps.confirm.deleteTitle', { name: deleting?.title ?? '' })}
        message={t('settings.helps.confirm.deleteMessage')}
        busy={removing.isLoading}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </Box>
  );
}
