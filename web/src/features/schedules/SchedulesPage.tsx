import { Box, Button, Flex, Heading, HStack, IconButton, Input, Text, type SystemStyleObject } from '@chakra-ui/react';
import type { ScheduleDto } from '@wa/contracts';
import { useCallback, useMemo, useRef, useState } from 'react';
import { Calendar, type EventProps, type Messages, type View } from 'react-big-calendar';
import 'react-big-calendar/lib/css/react-big-calendar.css';
import { useTranslation } from 'react-i18next';
import { MdAdd, MdDelete, MdEdit } from 'react-icons/md';
import { useSearchParams } from 'react-router-dom';
import { SEARCH_DEBOUNCE_MS, useDebounced } from '../../app/use-debounced';
import { useConfirmedDelete } from '../../app/list-page';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CALENDAR_FORMATS, localizer, weekStartsOn } from './calendar-localizer';
import { AGENDA_DAYS, inRange, toEvent, visibleRange, type CalendarView, type ScheduleEvent } from './schedule-list-rules';
import { eventTone, TONE_PALETTE } from './schedule-rules';
import { languageTag } from '../../app/i18n';
import { ScheduleDialog } from './ScheduleDialog';
import { useMonthViewRoles } from './calendar-a11y';
import { useDeleteScheduleMutation, useListSchedulesQuery } from './schedules.api';

const VIEWS: CalendarView[] = ['month', 'week', 'day', 'agenda'];

/** Every line react-big-calendar draws (its stylesheet gives them a light grey). */
const LINES = [
  '.rbc-month-view',
  '.rbc-time-view',
  '.rbc-header',
  '.rbc-header + .rbc-header',
  '.rbc-month-row + .rbc-month-row',
  '.rbc-day-bg + .rbc-day-bg',
  '.rbc-time-header-content',
  '.rbc-time-content',
  '.rbc-time-content > * + * > *',
  '.rbc-timeslot-group',
  '.rbc-day-slot .rbc-time-slot',
  '.rbc-time-header.rbc-overflowing',
  '.rbc-agenda-view table.rbc-agenda-table',
  '.rbc-agenda-view table.rbc-agenda-table thead > tr > th',
  '.rbc-agenda-view table.rbc-agenda-table tbody > tr > td + td',
  '.rbc-agenda-view table.rbc-agenda-table tbody > tr + tr',
  '.rbc-overlay-header',
]
  .map((s) => `& ${s}`)
  // one selector list; typed as a single literal key so the style object keeps its token checks
  .join(', ') as '& .rbc-lines';

/** react-big-calendar drawn with the theme's tokens, so it reads in the dark mode too. */
const calendarCss: SystemStyleObject = {
  '& .rbc-calendar': { color: 'fg', minH: '560px' },
  '& .rbc-toolbar': { gap: '2' },
  '& .rbc-toolbar .rbc-toolbar-label': { textTransform: 'capitalize', fontWeight: 'semibold', textStyle: 'md' },
  '& .rbc-toolbar button': { color: 'fg', borderColor: 'border', bg: 'bg' },
  '& .rbc-toolbar button:hover, & .rbc-toolbar button:focus': { bg: 'bg.muted', borderColor: 'border', color: 'fg' },
  '& .rbc-toolbar button.rbc-active, & .rbc-toolbar button:active': { bg: 'teal.subtle', color: 'teal.fg', boxShadow: 'none' },
  [LINES]: { borderColor: 'border' },
  '& .rbc-month-view, & .rbc-time-view, & .rbc-agenda-view': { bg: 'bg' },
  '& .rbc-off-range-bg': { bg: 'bg.muted' },
  // the neighbouring months' days: muted, still readable (fg.muted keeps a contrast of 4.5 on bg.muted)
  '& .rbc-off-range': { color: 'fg.muted' },
  '& .rbc-today': { bg: 'teal.subtle' },
  '& .rbc-event': { px: '1', py: '0.5' },
  '& .rbc-event:focus, & .rbc-event.rbc-selected': { outline: '2px solid', outlineColor: 'teal.focusRing', outlineOffset: '1px' },
  '& .rbc-show-more': { bg: 'transparent', color: 'teal.fg' },
  '& .rbc-overlay': { bg: 'bg.panel', borderColor: 'border', color: 'fg', shadow: 'lg' },
  '& .rbc-current-time-indicator': { bg: 'teal.solid' },
  '& .rbc-agenda-empty': { color: 'fg.muted', py: '4' },
};

/** One schedule on the calendar: the contact's name, edit and delete. */
function ScheduleEventCell({
  event,
  onEdit,
  onDelete,
}: EventProps<ScheduleEvent> & { onEdit(s: ScheduleDto): void; onDelete(s: ScheduleDto): void }) {
  const { t } = useTranslation();
  const s = event.schedule;
  return (
    <HStack
      gap="0.5"
      minW="0"
      data-testid="schedule-event"
      data-schedule-id={s.id}
      data-status={s.status}
      title={`${event.title}: ${s.body}`}
    >
      <Text as="span" flex="1" minW="0" truncate textStyle="xs" fontWeight="medium" data-testid="schedule-event-name">
        {event.title}
      </Text>
      <IconButton
        size="2xs"
        variant="ghost"
        color="inherit"
        minW="5"
        h="5"
        aria-label={t('schedules.edit')}
        onClick={(e) => {
          e.stopPropagation();
          onEdit(s);
        }}
        data-testid="schedule-event-edit"
      >
        <MdEdit />
      </IconButton>
      <IconButton
        size="2xs"
        variant="ghost"
        color="inherit"
        minW="5"
        h="5"
        aria-label={t('schedules.delete')}
        onClick={(e) => {
          e.stopPropagation();
          onDelete(s);
        }}
        data-testid="schedule-event-delete"
      >
        <MdDelete />
      </IconButton>
    </HStack>
  );
}

/** An event's colour: sent green, failed red, waiting blue (the palettes follow the colour mode). */
function eventStyle(event: ScheduleEvent) {
  const palette = TONE_PALETTE[eventTone(event.schedule.status)];
  return {
    className: `schedule-event-${eventTone(event.schedule.status)}`,
    style: {
      backgroundColor: `var(--chakra-colors-${palette}-solid)`,
      color: `var(--chakra-colors-${palette}-contrast)`,
      borderColor: `var(--chakra-colors-${palette}-emphasized)`,
    },
  };
}

/**
 * /schedules (spec 01 §2, spec 02 §2 "Schedules calendar"): the scheduled messages on a calendar in the
 * user's language, with a count, a search, add, and edit/delete on each event. `?contactId=` opens the
 * create dialog for that contact. Live changes arrive through the socket (use-socket-cache-sync).
 */
export default function SchedulesPage() {
  const { t, i18n } = useTranslation();
  const culture = languageTag(i18n.language);
  const [search, setSearch] = useState('');
  const searchParam = useDebounced(search.trim(), SEARCH_DEBOUNCE_MS);
  const [date, setDate] = useState(() => new Date());
  const [view, setView] = useState<CalendarView>('month');
  const range = useMemo(() => visibleRange(date, view, weekStartsOn(culture)), [date, view, culture]);
  const list = useListSchedulesQuery({ ...range, searchParam });
  const noContact = t('schedules.noContact');
  const events = useMemo(() => (list.data ?? []).map((s) => toEvent(s, noContact)), [list.data, noContact]);
  const [params, setParams] = useSearchParams();
  const contactParam = Number(params.get('contactId'));
  const forContactId = Number.isSafeInteger(contactParam) && contactParam > 0 ? contactParam : null;
  const [editing, setEditing] = useState<ScheduleDto | null | undefined>(undefined);
  const [remove, removing] = useDeleteScheduleMutation();
  const { deleting, setDeleting, confirm: confirmDelete } = useConfirmedDelete<ScheduleDto>(remove, t('schedules.toasts.deleted'));

  const messages = useMemo<Messages<ScheduleEvent>>(
    () => ({
      date: t('schedules.calendar.date'),
      time: t('schedules.calendar.time'),
      event: t('schedules.calendar.event'),
      allDay: t('schedules.calendar.allDay'),
      week: t('schedules.calendar.week'),
      work_week: t('schedules.calendar.work_week'),
      day: t('schedules.calendar.day'),
      month: t('schedules.calendar.month'),
      previous: t('schedules.calendar.previous'),
      next: t('schedules.calendar.next'),
      yesterday: t('schedules.calendar.yesterday'),
      tomorrow: t('schedules.calendar.tomorrow'),
      today: t('schedules.calendar.today'),
      agenda: t('schedules.calendar.agenda'),
      noEventsInRange: t('schedules.calendar.noEventsInRange'),
      showMore: (n: number) => t('schedules.calendar.showMore', { n }),
    }),
    [t],
  );

  const components = useMemo(
    () => ({ event: (p: EventProps<ScheduleEvent>) => <ScheduleEventCell {...p} onEdit={setEditing} onDelete={setDeleting} /> }),
    [],
  );

  const closeDialog = useCallback(() => {
    setEditing(undefined);
    if (forContactId) {
      setParams(
        (p) => {
          const next = new URLSearchParams(p);
          next.delete('contactId');
          return next;
        },
        { replace: true },
      );
    }
  }, [forContactId, setParams]);

  /** A saved schedule outside the shown range: the calendar goes to its day, so the user sees it. */
  function showSaved(s: ScheduleDto) {
    if (!inRange(s.sendAt, range)) setDate(new Date(s.sendAt));
  }

  const calendarBox = useRef<HTMLDivElement>(null);
  useMonthViewRoles(calendarBox, t('a11y.monthView'));

  const dialogOpen = editing !== undefined || forContactId !== null;
  return (
    <Flex direction="column" p={{ base: '3', md: '6' }} h="full" data-testid="schedules-page">
      <Flex align="center" justify="space-between" mb="4" gap="3" wrap="wrap">
        <Heading size="lg" data-testid="schedules-title">
          {t('schedules.title')}{' '}
          <Text as="span" color="fg.muted" textStyle="md" data-testid="schedules-count">
            ({list.data?.length ?? 0})
          </Text>
        </Heading>
        <HStack gap="2" wrap="wrap">
          <Input
            size="sm"
            w="60"
            placeholder={t('schedules.search')}
            aria-label={t('schedules.search')}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            data-testid="schedules-search"
          />
          <Button size="sm" colorPalette="teal" onClick={() => setEditing(null)} data-testid="schedules-add">
            <MdAdd />
            {t('schedules.add')}
          </Button>
        </HStack>
      </Flex>
      <Box
        flex="1"
        minH="560px"
        bg="bg"
        borderRadius="md"
        borderWidth="1px"
        p="3"
        ref={calendarBox}
        css={calendarCss}
        data-testid="schedules-calendar"
        aria-busy={list.isFetching}
      >
        <Calendar<ScheduleEvent>
          localizer={localizer}
          culture={culture}
          messages={messages}
          formats={CALENDAR_FORMATS}
          events={events}
          views={VIEWS}
          view={view}
          onView={(v: View) => setView(v as CalendarView)}
          date={date}
          onNavigate={(d: Date) => setDate(d)}
          length={AGENDA_DAYS}
          popup
          components={components}
          eventPropGetter={eventStyle}
          onSelectEvent={(e) => setEditing(e.schedule)}
          style={{ height: '100%', minHeight: 560 }}
        />
      </Box>
      {dialogOpen && (
        <ScheduleDialog
          key={editing?.id ?? `new-${forContactId ?? ''}`}
          schedule={editing ?? null}
          forContact={editing === undefined && forContactId ? { id: forContactId } : undefined}
          onClose={closeDialog}
          onSaved={showSaved}
        />
      )}
      <ConfirmDialog
        open={!!deleting}
        title={t('schedules.deleteTitle', { name: deleting?.contact?.name ?? noContact })}
        message={t('schedules.deleteMessage')}
        busy={removing.isLoading}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </Flex>
  );
}
