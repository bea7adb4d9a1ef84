import { Box, Center, Skeleton, Spinner, Stack, Text } from '@chakra-ui/react';
import type { TicketDto } from '@wa/contracts';
import { lazy, Suspense, useCallback, useEffect, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { errorText } from '../../app/errors';
import { notify } from '../../app/notify';
import { mark } from '../../app/perf';
import { selectUser } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { useScrollPaging } from '../../app/list-page';
import { useSocketRoom } from '../../realtime/RealtimeProvider';
import { AGE_REFRESH_MS } from './age-label';
import { TicketCard, ticketCardCss } from './TicketCard';
import { mayPreview, showsPreview } from './preview-access';
import { flattenTickets, type TicketListArgs, type TicketPages } from '../tickets/ticket-list-rules';
import { useListTicketsInfiniteQuery } from '../tickets/tickets.api';
import { useNow } from './use-now';
import { useTicketActions } from '../tickets/use-ticket-actions';
import { shortcutOf, useShortcuts } from '../tickets/shortcuts';

/** The preview of a ticket (a dialog with its conversation) loads when a card's preview is first opened. */
const TicketPreviewDialog = lazy(() => import('./TicketPreviewDialog').then((m) => ({ default: m.TicketPreviewDialog })));

export function TicketsList({ args, selectedUuid }: { args: TicketListArgs; selectedUuid?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const query = useListTicketsInfiniteQuery(args);
  const tickets = flattenTickets(query.data as TicketPages | undefined);
  const now = useNow(AGE_REFRESH_MS);
  const actions = useTicketActions();
  const paging = useScrollPaging(
    { hasNextPage: query.hasNextPage, isFetching: query.isFetchingNextPage, fetchNextPage: query.fetchNextPage },
    tickets.length,
  );
  const [previewing, setPreviewing] = useState<TicketDto | null>(null);
  const me = useAppSelector(selectUser);
  const preview = useCallback(
    (ticket: TicketDto) => {
      if (mayPreview(me, ticket)) setPreviewing(ticket);
      else notify.errorText(t('tickets.accessDenied'));
    },
    [me, t],
  );
  useSocketRoom('joinTickets', args.status);

  useEffect(() => {
    if (!query.isLoading) mark('tickets-list');
  }, [query.isLoading]);

  const open = useCallback((ticket: TicketDto) => navigate(`/tickets/${ticket.uuid}`), [navigate]);

  /**
   * J/K (or Alt+↓/↑): the next or previous ticket of this list, after the one with the keyboard's focus or
   * the one open. It opens, as a click would; a pending one is only selected (it opens by being accepted: A).
   */
  const move = (step: 1 | -1) => {
    const list = paging.ref.current;
    if (!list || tickets.length === 0) return false;
    const focused = document.activeElement instanceof Element ? document.activeElement.closest('[data-card]') : null;
    const from = focused && list.contains(focused) ? focused.getAttribute('data-ticket-uuid') : selectedUuid;
    const at = tickets.findIndex((ticket) => ticket.uuid === from);
    const target = tickets[at < 0 ? (step > 0 ? 0 : tickets.length - 1) : at + step];
    if (!target) return true;
    const card = list.querySelector<HTMLElement>(`[data-card][data-ticket-uuid="${target.uuid}"]`);
    card?.focus({ preventScroll: true });
    card?.scrollIntoView?.({ block: 'nearest' });
    if (target.status !== 'pending') open(target);
    return true;
  };
  useShortcuts({ next: () => move(1), previous: () => move(-1) });
  /** A: the pending ticket selected in the list is accepted (before the open chat's, which the chat's own A accepts). */
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (shortcutOf(e.nativeEvent) !== 'accept' || e.repeat || !(e.target instanceof Element)) return;
    const card = e.target.closest('[data-card][data-status="pending"]');
    const ticket = card && tickets.find((t) => t.uuid === card.getAttribute('data-ticket-uuid'));
    if (!ticket) return;
    e.preventDefault();
    if (actions.busyId !== ticket.id) void actions.accept(ticket);
  };

  let body;
  if (query.isLoading) {
    body = (
      <Stack p="3" gap="3" data-testid="tickets-loading">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} h="16" />
        ))}
      </Stack>
    );
  } else if (query.isError && tickets.length === 0) {
    body = (
      <Center p="6" color="fg.error" textStyle="sm">
        {errorText(query.error)}
      </Center>
    );
  } else if (tickets.length === 0) {
    body = (
      <Stack p="6" gap="1" textAlign="center" data-testid="tickets-empty">
        <Text fontWeight="semibold">{t('tickets.noTickets.title')}</Text>
        <Text textStyle="sm" color="fg.muted">
          {t('tickets.noTickets.message')}
        </Text>
      </Stack>
    );
  } else {
    body = tickets.map((ticket) => (
      <TicketCard
        key={ticket.id}
        ticket={ticket}
        now={now}
        selected={ticket.uuid === selectedUuid}
        accepting={actions.busyId === ticket.id}
        onOpen={open}
        onAccept={actions.accept}
        onPreview={showsPreview(me, ticket) ? preview : undefined}
      />
    ));
  }

  return (
    <Box
      ref={paging.ref}
      flex="1"
      minH="0"
      overflowY="auto"
      css={ticketCardCss}
      onScroll={paging.onScroll}
      onKeyDown={onKeyDown}
      role="feed"
      aria-busy={query.isFetching}
      aria-label={t('tickets.listLabel')}
      data-testid="tickets-list"
      data-status={args.status ?? 'search'}
      data-ready={!query.isLoading}
    >
      {body}
      {query.isFetchingNextPage && (
        <Center py="3">
          <Spinner size="sm" />
        </Center>
      )}
      {previewing && (
        <Suspense fallback={null}>
          <TicketPreviewDialog
            ticket={previewing}
            onClose={() => setPreviewing(null)}
            onAccept={previewing.status === 'pending' ? actions.accept : undefined}
          />
        </Suspense>
      )}
    </Box>
  );
}
