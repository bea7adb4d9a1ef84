import {
  Badge,
  Box,
  Button,
  Center,
  Field,
  Flex,
  Heading,
  HStack,
  Input,
  NativeSelect,
  Progress,
  SimpleGrid,
  Spinner,
  Table,
  Text,
} from '@chakra-ui/react';
import type { ConnectionStatus, SessionReplicaDto } from '@wa/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdArrowDownward, MdArrowUpward } from 'react-icons/md';
import { errorText } from '../../app/errors';
import { notify } from '../../app/notify';
import { SEARCH_DEBOUNCE_MS, useDebounced } from '../../app/use-debounced';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { dateTimeLabel } from '../connections/connection-rules';
import {
  CONNECTION_STATUSES,
  clockLabel,
  loadPalette,
  loadPercent,
  NO_FILTERS,
  pageCount,
  SESSIONS_POLL_MS,
  sessionsViewArg,
  STATUS_PALETTE,
  type SessionsFilters,
} from './sessions-rules';
import { useDrainReplicaMutation, usePlatformSessionsQuery, useUndrainReplicaMutation } from './sessions.api';

/**
 * The Sessões tab of /settings (issue 43 §5, super users only): the WhatsApp sessions' replicas (load over capacity,
 * memory, last heartbeat, a drain and its undo behind a confirmation) and a page of connections (100 a page) with
 * where each runs and its health, filtered by company, replica and status (`GET /platform/sessions`). Live by
 * polling every 5 s: replicas and sessions change without any event reaching the browser.
 */
export function SessionsTab() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<SessionsFilters>(NO_FILTERS);
  const [page, setPage] = useState(1);
  // the company id is typed: asked once the typing stops, as the searches are
  const companyId = useDebounced(filters.companyId, SEARCH_DEBOUNCE_MS);
  const view = usePlatformSessionsQuery(sessionsViewArg({ ...filters, companyId }, page), {
    pollingInterval: SESSIONS_POLL_MS,
    skipPollingIfUnfocused: true,
  });
  const replicas = view.data?.replicas ?? [];
  const connections = view.data?.connections ?? [];
  const count = view.data?.count ?? 0;
  const pages = pageCount(count);
  // connections gone while on a later page (a filter, a scale-down): the last page there is
  useEffect(() => {
    if (view.data && page > pages) setPage(pages);
  }, [view.data, page, pages]);
  const [asked, setAsked] = useState<{ replica: SessionReplicaDto; drain: boolean } | null>(null);
  const [drain, draining] = useDrainReplicaMutation();
  const [undrain, undraining] = useUndrainReplicaMutation();

  function filter(change: Partial<SessionsFilters>) {
    setFilters((f) => ({ ...f, ...change }));
    setPage(1);
  }

  async function confirmDrain() {
    if (!asked) return;
    const { replica, drain: on } = asked;
    try {
      await (on ? drain(replica.name) : undrain(replica.name)).unwrap();
      notify.success(t(on ? 'settings.sessions.toasts.drained' : 'settings.sessions.toasts.undrained', { name: replica.name }));
      setAsked(null);
    } catch (err) {
      notify.error(err);
    }
  }

  // the replica filtered on stays offered when it has stopped (its connections show no replica then)
  const replicaNames = replicas.map((r) => r.name);
  if (filters.replica && !replicaNames.includes(filters.replica)) replicaNames.push(filters.replica);

  return (
    <Box data-testid="settings-sessions">
      <Flex gap="3" mb="4" align="baseline" wrap="wrap">
        <Heading size="md" flex="1">
          {t('settings.sessions.title')}
        </Heading>
        <Text textStyle="xs" color="fg.muted" data-testid="sessions-live">
          {t('settings.sessions.live', { seconds: SESSIONS_POLL_MS / 1000 })}
          {view.fulfilledTimeStamp
            ? ` · ${t('settings.sessions.updatedAt', { time: clockLabel(new Date(view.fulfilledTimeStamp).toISOString()) })}`
            : ''}
        </Text>
      </Flex>
      {view.isLoading && (
        <Center py="8">
          <Spinner />
        </Center>
      )}
      {view.isError && (
        <Center py="4" color="fg.error" data-testid="sessions-error">
          {t('settings.sessions.loadFailed')} {errorText(view.error)}
        </Center>
      )}
      {view.data && (
        <>
          <Heading size="sm" mb="2">
            {t('settings.sessions.replicas')}{' '}
            <Text as="span" color="fg.muted" textStyle="sm" data-testid="replicas-count">
              ({replicas.length})
            </Text>
          </Heading>
          {replicas.length === 0 ? (
            <Center py="6" mb="4" color="fg.muted" borderWidth="1px" borderRadius="md" data-testid="replicas-empty">
              {t('settings.sessions.noReplicas')}
            </Center>
          ) : (
            <SimpleGrid columns={{ base: 1, md: 2, lg: 3 }} gap="3" mb="5" data-testid="replicas">
              {replicas.map((r) => (
                <ReplicaCard key={r.name} replica={r} onDrain={(on) => setAsked({ replica: r, drain: on })} />
              ))}
            </SimpleGrid>
          )}
        </>
      )}
      <Flex gap="3" mb="3" align="end" wrap="wrap">
        <Heading size="sm" flex="1">
          {t('settings.sessions.connections')}{' '}
          <Text as="span" color="fg.muted" textStyle="sm" data-testid="connections-count">
            ({count})
          </Text>
        </Heading>
        <Field.Root maxW="36">
          <Field.Label textStyle="xs">{t('settings.sessions.filters.companyId')}</Field.Label>
          <Input
            size="sm"
            inputMode="numeric"
            value={filters.companyId}
            onChange={(e) => filter({ companyId: e.target.value })}
            data-testid="sessions-filter-company"
          />
        </Field.Root>
        <Field.Root maxW="56">
          <Field.Label textStyle="xs">{t('settings.sessions.filters.replica')}</Field.Label>
          <NativeSelect.Root size="sm">
            <NativeSelect.Field
              value={filters.replica}
              onChange={(e) => filter({ replica: e.target.value })}
              data-testid="sessions-filter-replica"
            >
              <option value="">{t('settings.sessions.filters.allReplicas')}</option>
              {replicaNames.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
        <Field.Root maxW="56">
          <Field.Label textStyle="xs">{t('settings.sessions.filters.status')}</Field.Label>
          <NativeSelect.Root size="sm">
            <NativeSelect.Field
              value={filters.status}
              onChange={(e) => filter({ status: e.target.value as ConnectionStatus | '' })}
              data-testid="sessions-filter-status"
            >
              <option value="">{t('settings.sessions.filters.allStatuses')}</option>
              {CONNECTION_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {t(`connections.status.${s}`)}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
      </Flex>
      <Box borderRadius="md" borderWidth="1px" overflowX="auto">
        <Table.Root size="sm" data-testid="sessions-connections-table">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader textAlign="end">{t('settings.sessions.columns.id')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">{t('settings.sessions.columns.company')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('settings.sessions.columns.name')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="center">{t('settings.sessions.columns.status')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('settings.sessions.columns.replica')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="center">{t('settings.sessions.columns.connectedSince')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="center">{t('settings.sessions.columns.lastEventAt')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">{t('settings.sessions.columns.reconnects')}</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">{t('settings.sessions.columns.messages')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('settings.sessions.columns.lastError')}</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {connections.map((c) => (
              <Table.Row key={c.id} data-testid={`session-row-${c.id}`} data-status={c.status}>
                <Table.Cell textAlign="end">{c.id}</Table.Cell>
                <Table.Cell textAlign="end" data-testid="session-company-cell">
                  {c.companyId}
                </Table.Cell>
                <Table.Cell fontWeight="medium" data-testid="session-name-cell">
                  {c.name}
                </Table.Cell>
                <Table.Cell textAlign="center" data-testid="session-status-cell">
                  <Badge size="sm" variant="subtle" colorPalette={STATUS_PALETTE[c.status] ?? 'gray'}>
                    {t(`connections.status.${c.status}`, { defaultValue: c.status })}
                  </Badge>
                </Table.Cell>
                <Table.Cell whiteSpace="nowrap" color={c.replica ? undefined : 'fg.muted'} data-testid="session-replica-cell">
                  {c.replica ?? t('settings.sessions.noReplica')}
                </Table.Cell>
                <Table.Cell textAlign="center" whiteSpace="nowrap" data-testid="session-since-cell">
                  {c.connectedSince ? dateTimeLabel(c.connectedSince) : ''}
                </Table.Cell>
                <Table.Cell textAlign="center" whiteSpace="nowrap" data-testid="session-event-cell">
                  {c.lastEventAt ? dateTimeLabel(c.lastEventAt) : ''}
                </Table.Cell>
                <Table.Cell textAlign="end" data-testid="session-reconnects-cell">
                  {c.reconnects}
                </Table.Cell>
                <Table.Cell textAlign="end" whiteSpace="nowrap" data-testid="session-messages-cell">
                  <HStack justify="end" gap="0.5" title={t('settings.sessions.columns.messages')}>
                    <MdArrowDownward />
                    {c.messagesIn}
                    <Text as="span" color="fg.muted" mx="1">
                      /
                    </Text>
                    <MdArrowUpward />
                    {c.messagesOut}
                  </HStack>
                </Table.Cell>
                <Table.Cell maxW="64" truncate title={c.lastError ?? undefined} color="fg.error" data-testid="session-error-cell">
                  {c.lastError ?? ''}
                </Table.Cell>
              </Table.Row>
            ))}
            {view.data && connections.length === 0 && (
              <Table.Row>
                <Table.Cell colSpan={10} textAlign="center" color="fg.muted" py="6" data-testid="sessions-empty">
                  {t('common.noRecords')}
                </Table.Cell>
              </Table.Row>
            )}
          </Table.Body>
        </Table.Root>
      </Box>
      {pages > 1 && (
        <HStack justify="end" mt="3" gap="3" data-testid="sessions-pager">
          <Text textStyle="sm" color="fg.muted" data-testid="sessions-page">
            {t('settings.sessions.page', { page, pages })}
          </Text>
          <Button size="xs" variant="outline" disabled={page <= 1} onClick={() => setPage((p) => p - 1)} data-testid="sessions-previous">
            {t('settings.sessions.previous')}
          </Button>
          <Button
            size="xs"
            variant="outline"
            disabled={!view.data?.hasMore}
            onClick={() => setPage((p) => p + 1)}
            data-testid="sessions-next"
          >
            {t('settings.sessions.next')}
          </Button>
        </HStack>
      )}
      <ConfirmDialog
        open={!!asked}
        title={t(asked?.drain === false ? 'settings.sessions.confirm.undrainTitle' : 'settings.sessions.confirm.drainTitle', {
          name: asked?.replica.name ?? '',
        })}
        message={t(asked?.drain === false ? 'settings.sessions.confirm.undrainMessage' : 'settings.sessions.confirm.drainMessage')}
        busy={draining.isLoading || undraining.isLoading}
        onConfirm={() => void confirmDrain()}
        onClose={() => setAsked(null)}
      />
    </Box>
  );
}

/** A replica: its load over its capacity as a bar, memory, host and process, start and last heartbeat, and its drain button. */
function ReplicaCard({ replica: r, onDrain }: { replica: SessionReplicaDto; onDrain(on: boolean): void }) {
  const { t } = useTranslation();
  const percent = loadPercent(r);
  return (
    <Box
      borderWidth="1px"
      borderRadius="md"
      p="3"
      bg={r.draining ? 'orange.subtle' : 'bg'}
      data-testid={`replica-${r.name}`}
      data-draining={r.draining}
    >
      <Flex align="center" gap="2" mb="1">
        <Text fontWeight="semibold" flex="1" truncate title={r.name}>
          {r.name}
        </Text>
        {r.draining && (
          <Badge size="sm" colorPalette="orange" data-testid="replica-draining">
            {t('settings.sessions.replica.draining')}
          </Badge>
        )}
      </Flex>
      <Text textStyle="xs" color="fg.muted" mb="2" truncate data-testid="replica-host">
        {t('settings.sessions.replica.host', { host: r.host, pid: r.pid })}
      </Text>
      <Flex justify="space-between" textStyle="sm">
        <Text>{t('settings.sessions.replica.load')}</Text>
        <Text fontWeight="medium" data-testid="replica-load">
          {t('settings.sessions.replica.loadValue', { load: r.load, capacity: r.capacity })}
        </Text>
      </Flex>
      <Progress.Root value={percent} size="sm" colorPalette={loadPalette(percent)} my="1.5" data-testid="replica-load-bar">
        <Progress.Track>
          <Progress.Range />
        </Progress.Track>
      </Progress.Root>
      <Flex justify="space-between" textStyle="sm">
        <Text>{t('settings.sessions.replica.memory')}</Text>
        <Text data-testid="replica-memory">{t('settings.sessions.replica.memoryValue', { mb: Math.round(r.memoryMb) })}</Text>
      </Flex>
      <Flex justify="space-between" textStyle="sm">
        <Text>{t('settings.sessions.replica.startedAt')}</Text>
        <Text data-testid="replica-started">{dateTimeLabel(r.startedAt)}</Text>
      </Flex>
      <Flex justify="space-between" textStyle="sm" mb="2">
        <Text>{t('settings.sessions.replica.lastSeen')}</Text>
        <Text data-testid="replica-last-seen">{clockLabel(r.lastSeenAt)}</Text>
      </Flex>
      <Button
        size="xs"
        width="full"
        variant="outline"
        colorPalette={r.draining ? 'teal' : 'orange'}
        onClick={() => onDrain(!r.draining)}
        data-testid={r.draining ? 'replica-undrain' : 'replica-drain'}
      >
        {r.draining ? t('settings.sessions.replica.undrain') : t('settings.sessions.replica.drain')}
      </Button>
    </Box>
  );
}
