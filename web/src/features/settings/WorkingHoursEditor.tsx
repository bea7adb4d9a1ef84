import { Badge, Box, Button, Field, Grid, GridItem, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { Fragment, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  hasWorkingDaysErrors,
  isClosedDay,
  validateWorkingDays,
  workingDaysPayload,
  workingHoursServerErrors,
  type TimeField,
  type WorkingDay,
} from './working-hours';

const EMPTY: Readonly<Record<string, string>> = {};

/**
 * The seven days of working hours, each with a start and an end (HH:mm), and a save button (spec 02 §2: the
 * queue dialog's schedules tab and the settings page's Horarios tab share it). It keeps the days while they are
 * edited; `onSave` gets them checked and ready to send (`workingDaysPayload`). The host decides what saving is:
 * the queue dialog keeps them in its form, the settings page sends them.
 *
 * `initial` is read once (give a `key` to start over); `serverErrors` are `serverFieldErrors(err)` of the host's
 * last call (`schedules.<day>.startTime`…), each shown until its field is changed.
 */
export function WorkingHoursEditor({
  initial,
  onSave,
  onEdit,
  saveLabel,
  saving = false,
  serverErrors = EMPTY,
  testId,
  children,
}: {
  initial: ReadonlyArray<WorkingDay>;
  onSave(days: WorkingDay[]): unknown;
  /** a time was changed (since the last save) */
  onEdit?(): void;
  saveLabel: string;
  saving?: boolean;
  serverErrors?: Readonly<Record<string, string>>;
  /** where the testids start (`<testId>-monday-start`, `<testId>-save`…) */
  testId: string;
  /** notes shown above the save button */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const [days, setDays] = useState<WorkingDay[]>(() => initial.map((d) => ({ ...d })));
  const [submitted, setSubmitted] = useState(false);
  // the server's errors stay until their field changes; a new answer shows all of its own
  const [cleared, setCleared] = useState<ReadonlySet<string>>(() => new Set());
  const [answer, setAnswer] = useState(serverErrors);
  if (answer !== serverErrors) {
    setAnswer(serverErrors);
    setCleared(new Set());
  }
  const local = validateWorkingDays(days);
  const server = workingHoursServerErrors(serverErrors);

  function change(index: number, field: TimeField, value: string) {
    setDays((ds) => ds.map((d, i) => (i === index ? { ...d, [field]: value } : d)));
    setCleared((c) => new Set(c).add(`${index}.${field}`).add('general'));
    onEdit?.();
  }

  const errorOf = (index: number, field: TimeField): string | undefined => {
    const problem = local[index]?.[field];
    if (submitted && problem) return t(`workingHours.validation.${problem}`);
    return cleared.has(`${index}.${field}`) ? undefined : server.days[index]?.[field];
  };
  const generalError = cleared.has('general') ? undefined : server.general;

  function submit(e: FormEvent) {
    e.preventDefault();
    e.stopPropagation();
    setSubmitted(true);
    if (hasWorkingDaysErrors(local)) return;
    void onSave(workingDaysPayload(days));
  }

  const timeInput = (index: number, field: TimeField, day: WorkingDay, dayName: string) => {
    const error = errorOf(index, field);
    const start = field === 'startTime';
    return (
      <Field.Root invalid={!!error}>
        <Input
          type="time"
          size="sm"
          value={day[field]}
          onChange={(e) => change(index, field, e.target.value)}
          aria-label={start ? t('workingHours.startOf', { day: dayName }) : t('workingHours.endOf', { day: dayName })}
          data-testid={`${testId}-${day.weekdayEn}-${start ? 'start' : 'end'}`}
        />
        {error && <Field.ErrorText>{error}</Field.ErrorText>}
      </Field.Root>
    );
  };

  return (
    <form onSubmit={submit} noValidate data-testid={testId}>
      <Stack gap="3">
        <Grid templateColumns={{ base: '1fr 1fr', sm: '13rem 1fr 1fr' }} columnGap="3" rowGap="2" alignItems="start">
          <Text hideBelow="sm" textStyle="xs" fontWeight="medium" color="fg.muted">
            {t('workingHours.day')}
          </Text>
          <Text hideBelow="sm" textStyle="xs" fontWeight="medium" color="fg.muted">
            {t('workingHours.start')}
          </Text>
          <Text hideBelow="sm" textStyle="xs" fontWeight="medium" color="fg.muted">
            {t('workingHours.end')}
          </Text>
          {days.map((day, index) => {
            const dayName = t(`workingHours.days.${day.weekdayEn}`);
            return (
              <Fragment key={day.weekdayEn}>
                <GridItem colSpan={{ base: 2, sm: 1 }} alignSelf="center" data-testid={`${testId}-${day.weekdayEn}`}>
                  <HStack gap="2">
                    <Text textStyle="sm" fontWeight="medium">
                      {dayName}
                    </Text>
                    {isClosedDay(day) && (
                      <Badge size="sm" colorPalette="gray" data-testid={`${testId}-${day.weekdayEn}-closed`}>
                        {t('workingHours.closed')}
                      </Badge>
                    )}
                  </HStack>
                </GridItem>
                {timeInput(index, 'startTime', day, dayName)}
                {timeInput(index, 'endTime', day, dayName)}
              </Fragment>
            );
          })}
        </Grid>
        {generalError && (
          <Text textStyle="sm" color="fg.error" data-testid={`${testId}-error`}>
            {generalError}
          </Text>
        )}
        <Text textStyle="xs" color="fg.muted">
          {t('workingHours.closedHint')}
        </Text>
        {children}
        <Box>
          <Button type="submit" size="sm" colorPalette="teal" loading={saving} data-testid={`${testId}-save`}>
            {saveLabel}
          </Button>
        </Box>
      </Stack>
    </form>
  );
}
