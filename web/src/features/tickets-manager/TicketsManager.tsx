import { Button, Flex, HStack, Input, Switch, Tabs } from '@chakra-ui/react';
import { MdAdd, MdLocalOffer, MdPeople } from 'react-icons/md';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { selectIsAdmin, selectUser } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { QueueFilter } from './QueueFilter';
import { userQueueIds, type TicketListArgs } from '../tickets/ticket-list-rules';
import { useTicketsView, type TicketsTab } from '../tickets/tickets-context';
import { useListQueuesQuery, useListTagsQuery, useListUserNamesQuery } from '../tickets/tickets.api';
import { TicketsList } from './TicketsList';
import { SEARCH_DEBOUNCE_MS, useDebounced } from '../../app/use-debounced';

const TABS: TicketsTab[] = ['open', 'pending', 'closed', 'search'];

/** The new-ticket dialog (its contact search and contact form) loads when first opened, not with the lists. */
const NewTicketModal = lazy(() => import('../contacts/NewTicketModal').then((m) => ({ default: m.NewTicketModal })));
/** The search tab's tag and user filters (menus, with their positioning code) load when that tab is first shown. */
const PickFilter = lazy(() => import('../../components/PickFilter').then((m) => ({ default: m.PickFilter })));

/** The ticket lists: status tabs, the search tab, "show all" for admins and the queue filter. */
export function TicketsManager({ selectedUuid }: { selectedUuid?: string }) {
  const { t } = useTranslation();
  const { tab, setTab } = useTicketsView();
  const user = useAppSelector(selectUser);
  const isAdmin = useAppSelector(selectIsAdmin);
  const { data: queues = [] } = useListQueuesQuery();
  const [showAll, setShowAll] = useState(false);
  const [queueIds, setQueueIds] = useState<number[]>(() => userQueueIds(user));
  const [search, setSearch] = useState('');
  const searchParam = useDebounced(search.trim(), SEARCH_DEBOUNCE_MS);
  const [newTicket, setNewTicket] = useState(false);
  const [tags, setTags] = useState<number[]>([]);
  const [users, setUsers] = useState<number[]>([]);
  const searching = tab === 'search';
  const tagOptions = useListTagsQuery(undefined, { skip: !searching });
  const userOptions = useListUserNamesQuery(undefined, { skip: !searching || !isAdmin });

  const args: TicketListArgs = useMemo(
    () =>
      tab === 'search'
        ? { searchParam, showAll: isAdmin && showAll, queueIds, tags, users: isAdmin ? users : [] }
        : { status: tab, showAll: isAdmin && showAll, queueIds },
    [tab, searchParam, showAll, isAdmin, queueIds, tags, users],
  );

  return (
    <Flex direction="column" h="full" minH="0" bg="bg" data-testid="tickets-manager">
      <Tabs.Root
        value={tab}
        onValueChange={(e) => setTab(e.value as TicketsTab)}
        size="sm"
        variant="line"
        fitted
        display="flex"
        flexDirection="column"
        flex="1"
        minH="0"
      >
        <Tabs.List>
          {TABS.map((value) => (
            <Tabs.Trigger key={value} value={value} data-testid={`tickets-tab-${value}`}>
              {t(`tickets.tabs.${value}`)}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {/* the selected tab's panel (the tab names it: aria-controls), holding the tab's filters and list */}
        <Tabs.Content value={tab} p="0" display="flex" flexDirection="column" flex="1" minH="0" _focusVisible={{ outline: 'none' }}>
          {tab === 'search' && (
            <Flex px="3" pt="3" gap="2" wrap="wrap">
              <Input
                size="sm"
                placeholder={t('tickets.searchPlaceholder')}
                aria-label={t('tickets.searchPlaceholder')}
                value={search}
                onChange={(e) => setSearch(e.target.value)}
                autoFocus
                data-testid="tickets-search"
              />
              <Suspense fallback={null}>
                <PickFilter
                  label={t('tickets.tagsFilter')}
                  icon={<MdLocalOffer />}
                  options={tagOptions.data ?? []}
                  selected={tags}
                  onChange={setTags}
                  testId="tags-filter"
                />
                {isAdmin && (
                  <PickFilter
                    label={t('tickets.usersFilter')}
                    icon={<MdPeople />}
                    options={userOptions.data ?? []}
                    selected={users}
                    onChange={setUsers}
                    testId="users-filter"
                  />
                )}
              </Suspense>
            </Flex>
          )}
          <HStack px="3" py="2" gap="3" justify="space-between" borderBottomWidth="1px">
            <Button size="xs" colorPalette="teal" variant="outline" onClick={() => setNewTicket(true)} data-testid="new-ticket">
              <MdAdd />
              {t('newTicket.button')}
            </Button>
            {isAdmin ? (
              <Switch.Root size="sm" checked={showAll} onCheckedChange={(e) => setShowAll(e.checked)} data-testid="tickets-show-all">
                <Switch.HiddenInput />
                <Switch.Control>
                  <Switch.Thumb />
                </Switch.Control>
                <Switch.Label>{t('tickets.showAll')}</Switch.Label>
              </Switch.Root>
            ) : (
              <span />
            )}
            <QueueFilter queues={queues} selected={queueIds} onChange={setQueueIds} />
          </HStack>
          <TicketsList key={tab} args={args} selectedUuid={selectedUuid} />
        </Tabs.Content>
      </Tabs.Root>
      {newTicket && (
        <Suspense fallback={null}>
          <NewTicketModal onClose={() => setNewTicket(false)} />
        </Suspense>
      )}
    </Flex>
  );
}
