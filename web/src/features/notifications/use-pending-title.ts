import { useEffect } from 'react';
import { flattenTickets, type TicketPages } from '../tickets/ticket-list-rules';
import { useListTicketsInfiniteQuery } from '../tickets/tickets.api';
import { countLabel, PENDING_NOTIFICATIONS_ARGS } from './notification-rules';

const COUNT_PREFIX = /^\(\d+\+?\) /;

/** The tab's title with the count of waiting tickets in front, "(N) Title"; the plain title when none. */
export function titleWithCount(title: string, count: string | null): string {
  const plain = title.replace(COUNT_PREFIX, '');
  return count ? `(${count}) ${plain}` : plain;
}

/**
 * The browser tab says how many tickets wait (issue 45 §6): the top bar's pending count (the same cached list
 * as the bell, kept live by the socket; no request of its own), put in front of the document title.
 */
export function usePendingTitle(): void {
  const list = useListTicketsInfiniteQuery(PENDING_NOTIFICATIONS_ARGS);
  const data = list.data as TicketPages | undefined;
  const count = countLabel(flattenTickets(data).length, data?.pages.at(-1)?.hasMore ?? false);

  useEffect(() => {
    document.title = titleWithCount(document.title, count);
    return () => {
      document.title = titleWithCount(document.title, null);
    };
  }, [count]);
}
