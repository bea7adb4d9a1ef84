import { Box, Center, Flex, Icon, Tabs, Text } from '@chakra-ui/react';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdForum } from 'react-icons/md';
import { useParams } from 'react-router-dom';
import { useWindowWidth } from '../../components/use-window-width';
import { store } from '../../app/store';
import { defaultTicketListArgs } from '../tickets/ticket-list-rules';
import { TicketsViewContext, type TicketsTab } from '../tickets/tickets-context';
import { ticketsApi } from '../tickets/tickets.api';
import { TicketsManager } from './TicketsManager';
import { useShortcuts } from '../tickets/shortcuts';

const TicketChat = lazy(() => import('../ticket-chat/TicketChat'));
/** The keyboard shortcuts' sheet loads when "?" is first pressed. */
const ShortcutsDialog = lazy(() => import('./ShortcutsDialog').then((m) => ({ default: m.ShortcutsDialog })));
if (/^\/tickets\/[^/]+/.test(window.location.pathname)) void import('../ticket-chat/TicketChat');

// the first list is asked for as soon as this code is here, while the page renders
const signedIn = store.getState().session.user;
if (signedIn) {
  const first = store.dispatch(ticketsApi.endpoints.listTickets.initiate(defaultTicketListArgs(signedIn)));
  setTimeout(() => first.unsubscribe(), 30_000);
}

/** Below this width the list and the chat are two tabs (Ticket, Atendimentos). */
export const SPLIT_VIEW_MIN_PX = 900;

function Welcome() {
  const { t } = useTranslation();
  return (
    <Center h="full" flexDirection="column" gap="3" color="fg.muted" data-testid="tickets-welcome">
      <Icon as={MdForum} boxSize="16" color="teal.fg" opacity={0.6} />
      <Text>{t('tickets.welcome')}</Text>
    </Center>
  );
}

/** /tickets and /tickets/{uuid}: the list left and the chat right, or two tabs on narrow screens. */
export default function TicketsPage() {
  const { t } = useTranslation();
  const { ticketId: uuid } = useParams();
  const wide = useWindowWidth() >= SPLIT_VIEW_MIN_PX;
  const [tab, setTab] = useState<TicketsTab>('open');
  const [narrowTab, setNarrowTab] = useState<'ticket' | 'list'>(uuid ? 'ticket' : 'list');
  const view = useMemo(() => ({ tab, setTab }), [tab]);
  const [sheet, setSheet] = useState(false);
  useShortcuts({ help: () => setSheet(true) });

  useEffect(() => setNarrowTab(uuid ? 'ticket' : 'list'), [uuid]);

  const chat = uuid ? (
    <Suspense fallback={null}>
      <TicketChat key={uuid} uuid={uuid} />
    </Suspense>
  ) : (
    <Welcome />
  );

  return (
    <TicketsViewContext.Provider value={view}>
      {wide ? (
        <Flex h="full" minH="0" data-testid="tickets-page" data-layout="split">
          <Box w={{ base: '340px', xl: '400px' }} flexShrink={0} borderRightWidth="1px" minH="0">
            <TicketsManager selectedUuid={uuid} />
          </Box>
          <Box flex="1" minW="0" minH="0">
            {chat}
          </Box>
        </Flex>
      ) : (
        <Flex direction="column" h="full" minH="0" data-testid="tickets-page" data-layout="tabs">
          <Tabs.Root
            value={narrowTab}
            onValueChange={(e) => setNarrowTab(e.value as 'ticket' | 'list')}
            size="sm"
            fitted
            variant="enclosed"
          >
            <Tabs.List>
              <Tabs.Trigger value="ticket" data-testid="narrow-tab-ticket">
                {t('tickets.narrowTabs.ticket')}
              </Tabs.Trigger>
              <Tabs.Trigger value="list" data-testid="narrow-tab-list">
                {t('tickets.narrowTabs.list')}
              </Tabs.Trigger>
            </Tabs.List>
          </Tabs.Root>
          <Box flex="1" minH="0">
            {narrowTab === 'list' ? <TicketsManager selectedUuid={uuid} /> : chat}
          </Box>
        </Flex>
      )}
      {sheet && (
        <Suspense fallback={null}>
          <ShortcutsDialog onClose={() => setSheet(false)} />
        </Suspense>
      )}
    </TicketsViewContext.Provider>
  );
}
