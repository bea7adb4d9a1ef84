import { Badge, Box, Button, Center, Flex, Heading, Spinner, Table, Text, Wrap } from '@chakra-ui/react';
import type { PublicPlanDto } from '@wa/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdAdd } from 'react-icons/md';
import { errorCode, errorText } from '../../app/errors';
import { RowActions, useConfirmedDelete } from '../../app/list-page';
import { formatBrl } from '../auth/signup-rules';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { PLAN_COUNTS, PLAN_FLAGS } from './plan-rules';
import { PlanDialog } from './PlanDialog';
import { useDeletePlanMutation, useListPlansQuery } from './plans.api';

/**
 * The Planos tab of /settings (spec 02 "Plans", super users only): every plan (`GET /plans/all`) with its
 * counts (0: no limit), monthly price in BRL and features; add, edit, and delete behind a confirmation.
 */
export function PlansTab() {
  const { t, i18n } = useTranslation();
  const { data: plans = [], isLoading, isError } = useListPlansQuery();
  const [editing, setEditing] = useState<PublicPlanDto | null | undefined>(undefined);
  const [remove, removing] = useDeletePlanMutation();
  // spec 02 §8: a refused delete says 'Não foi possível realizar a operação.', with the server's reason when it gave a
  // known one (ERR_PLAN_IN_USE: companies are on it). useConfirmedDelete toasts what is thrown: a text shows as is.
  const removeWithMessage = (id: number) => ({
    unwrap: () =>
      remove(id)
        .unwrap()
        .catch((err: unknown) => {
          const code = errorCode(err);
          const detail = code && i18n.exists(`backendErrors.${code}`) ? ` ${errorText(err)}` : '';
          throw `${t('settings.plans.toasts.deleteFailed')}${detail}`;
        }),
  });
  const {
    deleting,
    setDeleting,
    confirm: confirmDelete,
  } = useConfirmedDelete<PublicPlanDto>(removeWithMessage, t('settings.plans.toasts.deleted'));

  const count = (n: number) => (n > 0 ? String(n) : t('settings.plans.unlimited'));

  return (
    <Box data-testid="settings-plans">
      <Flex gap="3" mb="4" align="center" wrap="wrap">
        <Heading size="md" flex="1">
          {t('settings.plans.title')}{' '}
          <Text as="span" color="fg.muted" textStyle="sm" data-testid="plans-count">
            ({plans.length})
          </Text>
        </Heading>
        <Button size="sm" colorPalette="teal" onClick={() => setEditing(null)} data-testid="plans-add">
          <MdAdd />
          {t('settings.plans.add')}
        </Button>
      </Flex>
      {isLoading && (
        <Center py="8">
          <Spinner />
        </Center>
      )}
      {isError && (
        <Center py="8" color="fg.error" data-testid="plans-error">
          {t('settings.plans.loadFailed')}
        </Center>
      )}
      {!isLoading && !isError && (
        <Box borderRadius="md" borderWidth="1px" overflowX="auto">
          <Table.Root size="sm" data-testid="plans-table">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>{t('settings.plans.columns.name')}</Table.ColumnHeader>
                {PLAN_COUNTS.map((key) => (
                  <Table.ColumnHeader key={key} textAlign="center">
                    {t(`settings.plans.columns.${key}`)}
                  </Table.ColumnHeader>
                ))}
                <Table.ColumnHeader textAlign="end">{t('settings.plans.columns.value')}</Table.ColumnHeader>
                <Table.ColumnHeader>{t('settings.plans.columns.features')}</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="center">{t('settings.plans.columns.signup')}</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="center">{t('settings.plans.columns.actions')}</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {plans.map((p) => {
                const features = PLAN_FLAGS.filter((f) => p[f]);
                return (
                  <Table.Row key={p.id} data-testid={`plan-row-${p.id}`}>
                    <Table.Cell fontWeight="medium" data-testid="plan-name-cell">
                      {p.name}
                    </Table.Cell>
                    {PLAN_COUNTS.map((key) => (
                      <Table.Cell key={key} textAlign="center" color={p[key] > 0 ? undefined : 'fg.muted'} data-testid={`plan-${key}-cell`}>
                        {count(p[key])}
                      </Table.Cell>
                    ))}
                    <Table.Cell textAlign="end" whiteSpace="nowrap" data-testid="plan-value-cell">
                      {formatBrl(p.value, i18n.language)}
                    </Table.Cell>
                    <Table.Cell data-testid="plan-features-cell">
                      {features.length === 0 ? (
                        <Text color="fg.muted">{t('settings.plans.noFeatures')}</Text>
                      ) : (
                        <Wrap gap="1">
                          {features.map((f) => (
                            <Badge key={f} size="sm" variant="subtle" colorPalette="teal">
                              {t(`settings.plans.flags.${f}`)}
                            </Badge>
                          ))}
                        </Wrap>
                      )}
                    </Table.Cell>
                    <Table.Cell textAlign="center" whiteSpace="nowrap" data-testid="plan-signup-cell">
                      {p.isPublic ? t('settings.plans.offered', { count: p.trialDays ?? 0 }) : t('common.no')}
                    </Table.Cell>
                    <Table.Cell textAlign="center">
                      <RowActions onEdit={() => setEditing(p)} onDelete={() => setDeleting(p)} testId="plan" />
                    </Table.Cell>
                  </Table.Row>
                );
              })}
              {plans.length === 0 && (
                <Table.Row>
                  <Table.Cell colSpan={9} textAlign="center" color="fg.muted" py="6" data-testid="plans-empty">
                    {t('common.noRecords')}
                  </Table.Cell>
                </Table.Row>
              )}
            </Table.Body>
          </Table.Root>
        </Box>
      )}
      {editing !== undefined && <PlanDialog key={editing?.id ?? 'new'} plan={editing} onClose={() => setEditing(undefined)} />}
      <ConfirmDialog
        open={!!deleting}
        title={t('settings.plans.confirm.deleteTitle', { name: deleting?.name ?? '' })}
        message={t('settings.plans.confirm.deleteMessage')}
        busy={removing.isLoading}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </Box>
  );
}
