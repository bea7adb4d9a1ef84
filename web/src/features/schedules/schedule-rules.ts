import type { ScheduleDto, ScheduleStatus } from '@wa/contracts';

/** spec 01 §5 "Schedule": the message has at least 5 characters. */
export const SCHEDULE_BODY_MIN = 5;

/** What is wrong with a field: "Obrigatório" or "Mensagem muito curta" (texts under `schedules.validation`). */
export type ScheduleProblem = 'required' | 'tooShort';

export interface ScheduleFormValues {
  body: string;
  contactId: number | null;
  /** the datetime-local field's value (`YYYY-MM-DDTHH:mm`) */
  sendAt: string;
}

export type ScheduleErrors = Partial<Record<keyof ScheduleFormValues, ScheduleProblem>>;

/** spec 01 §5: body required and at least 5 characters; contact and send time required. */
export function validateSchedule(v: ScheduleFormValues): ScheduleErrors {
  const errors: ScheduleErrors = {};
  const body = v.body.trim();
  if (!body) errors.body = 'required';
  else if (body.length < SCHEDULE_BODY_MIN) errors.body = 'tooShort';
  if (!v.contactId) errors.contactId = 'required';
  if (!v.sendAt.trim() || sendAtToIso(v.sendAt) === null) errors.sendAt = 'required';
  return errors;
}

export const hasScheduleErrors = (e: ScheduleErrors): boolean => Object.values(e).some(Boolean);

const pad = (n: number) => String(n).padStart(2, '0');

/** A time as a datetime-local field shows it (`YYYY-MM-DDTHH:mm`, this browser's clock). */
export function toDateTimeLocal(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** spec 01 §5: a new schedule is sent one hour from now unless the user says otherwise. */
export function defaultSendAt(now: Date = new Date()): string {
  return toDateTimeLocal(new Date(now.getTime() + 3_600_000));
}

/** A saved schedule's time (ISO) for the datetime-local field. */
export function sendAtInput(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : toDateTimeLocal(d);
}

const LOCAL_INPUT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * The field's value as an ISO time, read on this browser's clock (the clock the calendar shows), or null
 * when it is not a time. Sent as ISO so the event lands where the user put it on the calendar.
 */
export function sendAtToIso(value: string): string | null {
  const m = LOCAL_INPUT.exec(value.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map((x) => Number(x ?? 0));
  const date = new Date(y, mo - 1, d, h, mi, s);
  // 2026-02-31 and the like roll over: refused rather than moved
  if (date.getFullYear() !== y || date.getMonth() !== mo - 1 || date.getDate() !== d) return null;
  return date.toISOString();
}

/** The key of a status's name under `schedules.status`. */
export type ScheduleStatusKey = 'pending' | 'sent' | 'error';

export function statusKey(status: ScheduleStatus): ScheduleStatusKey {
  switch (status) {
    case 'ENVIADA':
      return 'sent';
    case 'ERRO':
      return 'error';
    default:
      return 'pending';
  }
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * The dialog's title (spec 01 §2 "Schedule dialog": the title shows the status): "Novo agendamento" for a
 * new one, else "Agendamento — Pendente/Enviada/Erro", the reason after a failed send.
 */
export function scheduleTitle(schedule: Pick<ScheduleDto, 'status' | 'reason'> | null, t: Translate): string {
  if (!schedule) return t('schedules.dialog.newTitle');
  const status = t(`schedules.status.${statusKey(schedule.status)}`);
  if (schedule.status === 'ERRO' && schedule.reason?.trim())
    return t('schedules.dialog.titleWithReason', { status, reason: schedule.reason.trim() });
  return t('schedules.dialog.title', { status });
}

/** Once sent, a schedule is a record: shown, not changed. */
export const isReadOnly = (schedule: Pick<ScheduleDto, 'sentAt'> | null): boolean => !!schedule?.sentAt;

/** spec 01 §5: the picture sent with a schedule is png, jpg or jpeg. */
export const SCHEDULE_MEDIA_ACCEPT = '.png,.jpg,.jpeg,image/png,image/jpeg';

export function isAcceptedPicture(file: { name: string; type?: string }): boolean {
  const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
  if (!['png', 'jpg', 'jpeg'].includes(ext)) return false;
  return !file.type || file.type === 'image/png' || file.type === 'image/jpeg';
}

/** How an event looks on the calendar: sent, failed or still waiting. */
export type EventTone = 'sent' | 'error' | 'waiting';

export function eventTone(status: ScheduleStatus): EventTone {
  return status === 'ENVIADA' ? 'sent' : status === 'ERRO' ? 'error' : 'waiting';
}

/** The colour palette of each tone (palettes the theme carries). */
export const TONE_PALETTE: Record<EventTone, 'green' | 'red' | 'blue'> = { sent: 'green', error: 'red', waiting: 'blue' };
