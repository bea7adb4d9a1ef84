import { format, getDay, parse, startOfWeek } from 'date-fns';
import { enUS } from 'date-fns/locale/en-US';
import { es } from 'date-fns/locale/es';
import { ptBR } from 'date-fns/locale/pt-BR';
import { dateFnsLocalizer, type Formats } from 'react-big-calendar';

/** The calendar's cultures (the app's languages as `languageTag` names them). */
const LOCALES = { 'pt-BR': ptBR, 'en-US': enUS, es };

/** react-big-calendar on date-fns: month and day names, week start and times in the user's language. */
export const localizer = dateFnsLocalizer({ format, parse, startOfWeek, getDay, locales: LOCALES });

/** The first day of the week of a culture (Sunday in Portuguese and English, Monday in Spanish). */
export function weekStartsOn(culture: string): number {
  return LOCALES[culture as keyof typeof LOCALES]?.options?.weekStartsOn ?? 0;
}

const time = (
  date: Date,
  culture: string | undefined,
  loc: { format(value: Date, format: string, culture?: string): string } | undefined,
) => loc?.format(date, 'p', culture) ?? '';

/** A schedule is a moment: its event shows its send time, not a range (the event's length is only there to be seen). */
export const CALENDAR_FORMATS: Formats = {
  eventTimeRangeFormat: ({ start }, culture, loc) => time(start, culture, loc),
  eventTimeRangeStartFormat: ({ start }, culture, loc) => time(start, culture, loc),
  eventTimeRangeEndFormat: ({ start }, culture, loc) => time(start, culture, loc),
  agendaTimeRangeFormat: ({ start }, culture, loc) => time(start, culture, loc),
};
