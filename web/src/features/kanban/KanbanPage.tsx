import { Badge, Box, Button, Center, Flex, Heading, Spinner, Stack, Text } from '@chakra-ui/react';
import {
  DndContext,
  DragOverlay,
  KeyboardSensor,
  MouseSensor,
  TouchSensor,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
  type DragEndEvent,
  type DragStartEvent,
} from '@dnd-kit/core';
import { SocketChannels, type AppMessageChannelPayload, type TagDto, type TicketChannelPayload, type TicketDto } from '@wa/contracts';
import { memo, useEffect, useMemo, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'react-redux';
import { Link } from 'react-router-dom';
import { notify } from '../../app/notify';
import { PlanGate } from '../../app/PermissionGate';
import { selectUser } from '../../app/session';
import { useAppDispatch, useAppSelector, type RootState } from '../../app/store';
import { useSocketEvent } from '../../realtime/RealtimeProvider';
import { colorPillStyle } from '../../app/contrast';
import { useKanbanTagsQuery } from '../tags/tags.api';
import { flattenTickets, userQueueIds } from '../tickets/ticket-list-rules';
import {
  cardDragId,
  dropMove,
  groupKanban,
  laneDropId,
  parseCardDragId,
  type KanbanArgs,
  type KanbanLane,
  type LaneKey,
} from './kanban-rules';
import {
  logKanbanFailure,
  moveKanbanTicket,
  syncKanbanMessageEvent,
  syncKanbanTicketEvent,
  useKanbanTicketsInfiniteQuery,
} from './kanban.api';
import { formatPhone } from '../../app/phone';

const NO_LANES: TagDto[] = [];

/**
 * /kanban (spec 02 "Kanban"), for companies whose plan has useKanban (others get the permission notice and
 * go to / after 1 s): the open and pending tickets the user sees, in lanes: 'Em aberto' (no kanban tag),
 * then one per kanban tag in its colour. A card (contact name, number, last message, 'Ver Ticket') dragged
 * to another lane changes the ticket's tag; every open board follows the live ticket events.
 */
export default function KanbanPage() {
  return (
    <PlanGate flag="useKanban">
      <Kanban />
    </PlanGate>
  );
}

function Kanban() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const store = useStore<RootState>();
  const user = useAppSelector(selectUser);
  const queueKey = userQueueIds(user).join(',');
  // the user's queues, as the product's board asks for them
  const args = useMemo<KanbanArgs>(() => ({ queueIds: queueKey ? queueKey.split(',').map(Number) : [] }), [queueKey]);
  const lanesQuery = useKanbanTagsQuery();
  const ticketsQuery = useKanbanTicketsInfiniteQuery(args);
  const lanes = lanesQuery.data ?? NO_LANES;
  const tickets = useMemo(() => flattenTickets(ticketsQuery.data), [ticketsQuery.data]);
  const board = useMemo(() => groupKanban(tickets, lanes), [tickets, lanes]);

  // spec 02 §8: the board's failed requests are only logged
  useEffect(() => {
    if (lanesQuery.isError) logKanbanFailure('loading the lanes failed', lanesQuery.error);
  }, [lanesQuery.isError, lanesQuery.error]);
  useEffect(() => {
    if (ticketsQuery.isError) logKanbanFailure('loading the tickets failed', ticketsQuery.error);
  }, [ticketsQuery.isError, ticketsQuery.error]);

  const companyId = user?.companyId;
  useSocketEvent<TicketChannelPayload>(companyId ? SocketChannels.ticket(companyId) : null, (p) =>
    syncKanbanTicketEvent(p, store.getState(), dispatch),
  );
  useSocketEvent<AppMessageChannelPayload>(companyId ? SocketChannels.appMessage(companyId) : null, (p) =>
    syncKanbanMessageEvent(p, store.getState(), dispatch),
  );

  async function move(ticket: TicketDto, to: LaneKey) {
    const done = await dispatch(moveKanbanTicket(ticket, to, lanes));
    if (done) notify.success(t(to === 'open' ? 'kanban.toasts.removed' : 'kanban.toasts.added'));
  }

  const [dragged, setDragged] = useState<TicketDto | null>(null);
  // a click on 'Ver Ticket' is not a drag (the mouse has to move first); on a touch screen a card is lifted by
  // holding it, so a swipe still scrolls the lanes; the keyboard lifts it with Space or Enter
  const sensors = useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 6 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 200, tolerance: 6 } }),
    useSensor(KeyboardSensor),
  );

  function onDragStart(e: DragStartEvent) {
    const id = parseCardDragId(e.active.id);
    setDragged(tickets.find((tk) => tk.id === id) ?? null);
  }

  function onDragEnd(e: DragEndEvent) {
    setDragged(null);
    const drop = dropMove(e.active.id, e.over?.id, tickets, lanes);
    if (drop) void move(drop.ticket, drop.to);
  }

  const loading = lanesQuery.isLoading || ticketsQuery.isLoading;

  return (
    <Flex direction="column" h="full" minH="0" p={{ base: '3', md: '6' }} gap="4" data-testid="kanban-page">
      <Flex align="center" gap="3" wrap="wrap">
        <Heading size="lg" flex="1" data-testid="kanban-title">
          {t('kanban.title')}
        </Heading>
        {loading && <Spinner size="sm" />}
        {ticketsQuery.hasNextPage && (
          <Button
            size="sm"
            variant="outline"
            loading={ticketsQuery.isFetchingNextPage}
            onClick={() => void ticketsQuery.fetchNextPage()}
            data-testid="kanban-more"
          >
            {t('kanban.more')}
          </Button>
        )}
      </Flex>
      <DndContext sensors={sensors} onDragStart={onDragStart} onDragEnd={onDragEnd} onDragCancel={() => setDragged(null)}>
        <Flex flex="1" minH="0" gap="3" overflowX="auto" align="stretch" pb="2" data-testid="kanban-board">
          {board.map((lane) => (
            <Lane key={lane.key} lane={lane} />
          ))}
        </Flex>
        <DragOverlay>{dragged ? <CardBody ticket={dragged} lifted /> : null}</DragOverlay>
      </DndContext>
    </Flex>
  );
}

function Lane({ lane }: { lane: KanbanLane }) {
  const { t } = useTranslation();
  const { setNodeRef, isOver } = useDroppable({ id: laneDropId(lane.key) });
  const color = lane.tag?.color;
  return (
    <Flex
      ref={setNodeRef}
      direction="column"
      w="72"
      minW="72"
      maxH="full"
      bg={isOver ? 'bg.emphasized' : 'bg.muted'}
      borderRadius="md"
      borderWidth="1px"
      borderColor={isOver ? 'teal.solid' : 'border'}
      transition="background 0.15s"
      data-testid={`kanban-lane-${lane.key}`}
      data-over={isOver ? 'true' : undefined}
    >
      <Flex
        align="center"
        gap="2"
        px="3"
        py="2"
        borderTopRadius="md"
        bg={color ? undefined : 'gray.subtle'}
        style={color ? colorPillStyle(color) : undefined}
        data-testid="kanban-lane-header"
      >
        <Text fontWeight="semibold" flex="1" truncate data-testid="kanban-lane-title">
          {lane.tag ? lane.tag.name : t('kanban.open')}
        </Text>
        <Badge variant="surface" data-testid="kanban-lane-count">
          {lane.tickets.length}
        </Badge>
      </Flex>
      <Stack gap="2" p="2" overflowY="auto" flex="1" minH="24">
        {lane.tickets.map((ticket) => (
          <Card key={ticket.id} ticket={ticket} />
        ))}
        {lane.tickets.length === 0 && (
          <Center py="6" color="fg.muted" textStyle="sm">
            {t('kanban.empty')}
          </Center>
        )}
      </Stack>
    </Flex>
  );
}

const Card = memo(function Card({ ticket }: { ticket: TicketDto }) {
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({ id: cardDragId(ticket.id) });
  return (
    <Box
      ref={setNodeRef}
      {...listeners}
      {...attributes}
      // a group that moves (dnd-kit's "draggable" description and keys), not a button: it holds the "view" link,
      // and a button may not hold another control
      role="group"
      aria-label={ticket.contact?.name || formatPhone(ticket.contact?.number)}
      opacity={isDragging ? 0.4 : 1}
      cursor="grab"
      data-testid={`kanban-card-${ticket.id}`}
    >
      <CardBody ticket={ticket} />
    </Box>
  );
});

function CardBody({ ticket, lifted = false }: { ticket: TicketDto; lifted?: boolean }) {
  const { t } = useTranslation();
  // Enter on the link opens the ticket rather than lifting the card
  const keepKeys = (e: KeyboardEvent) => e.stopPropagation();
  return (
    <Stack gap="1" bg="bg" borderRadius="md" borderWidth="1px" p="3" shadow={lifted ? 'lg' : 'xs'} cursor={lifted ? 'grabbing' : undefined}>
      <Text fontWeight="medium" truncate data-testid="kanban-card-name">
        {ticket.contact?.name || formatPhone(ticket.contact?.number)}
      </Text>
      <Text textStyle="xs" color="fg.muted" data-testid="kanban-card-number">
        {formatPhone(ticket.contact?.number)}
      </Text>
      <Text textStyle="sm" color="fg.muted" lineClamp={2} wordBreak="break-word" data-testid="kanban-card-message">
        {ticket.lastMessage}
      </Text>
      <Button asChild size="xs" variant="outline" colorPalette="teal" alignSelf="flex-start" mt="1">
        <Link to={`/tickets/${ticket.uuid}`} onKeyDown={keepKeys} data-testid="kanban-card-open">
          {t('kanban.viewTicket')}
        </Link>
      </Button>
    </Stack>
  );
}
