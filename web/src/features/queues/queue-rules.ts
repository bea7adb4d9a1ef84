import type { CreateQueueRequest, QueueChannelPayload, QueueDto } from '@wa/contracts';
import { validateConnectionName } from '../../components/form-rules';
import { sevenDaysOf, workingDaysPayload, type WorkingDay } from '../settings/working-hours';

/** What a `company-<id>-queue` event does to the queues list. */
export function queueEventChange(p: QueueChannelPayload): { queue: QueueDto } | { removed: number } {
  return p.action === 'delete' ? { removed: p.queueId } : { queue: p.queue };
}

/** The server's order (`GET /queue`): by orderQueue (queues without one last), then by name, then id. */
export function compareQueues(a: Pick<QueueDto, 'id' | 'name' | 'orderQueue'>, b: Pick<QueueDto, 'id' | 'name' | 'orderQueue'>): number {
  if (a.orderQueue !== b.orderQueue) {
    if (a.orderQueue === null) return 1;
    if (b.orderQueue === null) return -1;
    return a.orderQueue - b.orderQueue;
  }
  return a.name.localeCompare(b.name) || a.id - b.id;
}

/** A queue changed (live or saved here): replaced where listed, or added, and the list kept in its order. */
export function upsertQueue(list: QueueDto[], queue: QueueDto): QueueDto[] {
  return [...list.filter((q) => q.id !== queue.id), queue].sort(compareQueues);
}

export function removeQueue(list: QueueDto[], queueId: number): QueueDto[] {
  const others = list.filter((q) => q.id !== queueId);
  return others.length === list.length ? list : others;
}

/** spec 02 "Validation": a queue's name is 2 to 50 characters, its colour 3 to 9. */
export const QUEUE_COLOR_MIN = 3;
export const QUEUE_COLOR_MAX = 9;

/** What is wrong with a field of the queue form (texts under `validation`, and `queues.dialog.orderQueueInteger`). */
export type QueueProblem = 'required' | 'tooShort' | 'tooLong' | 'integer';

export interface QueueFormValues {
  name: string;
  color: string;
  greetingMessage: string;
  outOfHoursMessage: string;
  /** as typed; '' for none */
  orderQueue: string;
  /**
   * The working hours the queue is saved with: its saved ones (as seven days), or those kept with the schedules
   * tab's button; null while it has none and none were kept. Null is sent as [] (no hours: always open), so a
   * queue is not given hours just because the tab shows the defaults (spec 02 §9) or the tab is hidden
   * (scheduleType is not queue); the defaults become its hours only once the user keeps them.
   */
  schedules: WorkingDay[] | null;
  /** the AI prompt answering the queue's customers; '' for none */
  promptId: number | '';
  /** the outside flow (queue integration) answering them; '' for none */
  integrationId: number | '';
}

export type QueueErrors = Partial<Record<keyof QueueFormValues, QueueProblem>>;

/** spec 02: the name is required, 2 to 50 characters (Too Short!, Too Long!, Required). */
export const validateQueueName = validateConnectionName;

/** spec 02: the colour is required, 3 to 9 characters. */
export function validateQueueColor(color: string): QueueProblem | null {
  const c = color.trim();
  if (!c) return 'required';
  if (c.length < QUEUE_COLOR_MIN) return 'tooShort';
  if (c.length > QUEUE_COLOR_MAX) return 'tooLong';
  return null;
}

/** The order is optional; when given, a whole number. */
export function validateOrderQueue(orderQueue: string): QueueProblem | null {
  const o = orderQueue.trim();
  return !o || /^-?\d{1,9}$/.test(o) ? null : 'integer';
}

export function validateQueueForm(v: QueueFormValues): QueueErrors {
  const errors: QueueErrors = {};
  const name = validateQueueName(v.name);
  const color = validateQueueColor(v.color);
  const orderQueue = validateOrderQueue(v.orderQueue);
  if (name) errors.name = name;
  if (color) errors.color = color;
  if (orderQueue) errors.orderQueue = orderQueue;
  return errors;
}

export const hasQueueErrors = (e: QueueErrors): boolean => Object.values(e).some(Boolean);

export function queueFormOf(queue: QueueDto | null): QueueFormValues {
  if (!queue)
    return {
      name: '',
      color: '',
      greetingMessage: '',
      outOfHoursMessage: '',
      orderQueue: '',
      schedules: null,
      promptId: '',
      integrationId: '',
    };
  return {
    name: queue.name,
    color: queue.color,
    greetingMessage: queue.greetingMessage ?? '',
    outOfHoursMessage: queue.outOfHoursMessage ?? '',
    orderQueue: String(queue.orderQueue ?? ''),
    schedules: queue.schedules?.length ? sevenDaysOf(queue.schedules) : null,
    promptId: queue.promptId ?? '',
    integrationId: queue.integrationId ?? '',
  };
}

/**
 * What the queue dialog sends to `POST /queue` and `PUT /queue/{id}`: a `CreateQueueRequest` with its texts, order and
 * schedules (the seven days in week order, or [] for none: spec 02 §7 PUT /queue/{id} "with schedules"); the prompt
 * and integration (null: none) only when the dialog offers them, else left out (unchanged).
 */
export type QueueBody = CreateQueueRequest &
  Required<Pick<CreateQueueRequest, 'greetingMessage' | 'outOfHoursMessage' | 'orderQueue' | 'schedules'>>;

/**
 * Which of the queue's links the dialog offers: the prompt with the plan's useOpenAi, the integration with
 * useIntegrations (spec 02 §6). Only those are sent, so a queue keeps a link the form does not show.
 */
export interface QueueLinkFields {
  prompt?: boolean;
  integration?: boolean;
}

export function queuePayload(v: QueueFormValues, links: QueueLinkFields = {}): QueueBody {
  const order = v.orderQueue.trim();
  return {
    name: v.name.trim(),
    color: v.color.trim(),
    greetingMessage: v.greetingMessage,
    outOfHoursMessage: v.outOfHoursMessage,
    orderQueue: order ? Number(order) : null,
    schedules: v.schedules ? workingDaysPayload(v.schedules) : [],
    ...(links.prompt ? { promptId: v.promptId === '' ? null : v.promptId } : {}),
    ...(links.integration ? { integrationId: v.integrationId === '' ? null : v.integrationId } : {}),
  };
}

/** The value a native colour input can show (`#rrggbb`): a short hex is spelled out; anything else shows black. */
export function nativeColor(color: string): string {
  const c = color.trim();
  if (/^#[0-9a-f]{6}$/i.test(c)) return c.toLowerCase();
  if (/^#[0-9a-f]{3}$/i.test(c)) return `#${[...c.slice(1)].map((x) => x + x).join('')}`.toLowerCase();
  if (/^#[0-9a-f]{8}$/i.test(c)) return c.slice(0, 7).toLowerCase();
  return '#000000';
}

/** What is wrong with a field of a chatbot option (texts under `queues.options.validation`). */
export type QueueOptionProblem = 'required' | 'option' | 'duplicate';

export interface QueueOptionFormValues {
  /** what the customer answers to pick it: 1 to 999 ('0' and '#' are the bot's back and restart keys) */
  option: string;
  title: string;
  message: string;
}

export type QueueOptionErrors = Partial<Record<'option' | 'title', QueueOptionProblem>>;

const OPTION = /^[1-9][0-9]{0,2}$/;

/**
 * An option of one level: required, a number from 1 to 999, not one a sibling already has
 * (`siblings`: the other options of the same level, without the one being edited).
 */
export function validateQueueOption(v: QueueOptionFormValues, siblings: ReadonlyArray<{ option: string }>): QueueOptionErrors {
  const errors: QueueOptionErrors = {};
  const option = v.option.trim();
  if (!v.title.trim()) errors.title = 'required';
  if (!option) errors.option = 'required';
  else if (!OPTION.test(option)) errors.option = 'option';
  else if (siblings.some((s) => s.option.trim() === option)) errors.option = 'duplicate';
  return errors;
}

export const hasQueueOptionErrors = (e: QueueOptionErrors): boolean => Object.values(e).some(Boolean);

/** The number offered for a new option of a level: one after the highest (1 on an empty level), '' past 999. */
export function nextOptionNumber(siblings: ReadonlyArray<{ option: string }>): string {
  const numbers = siblings.map((s) => Number(s.option)).filter((n) => Number.isInteger(n) && n > 0);
  const next = numbers.length ? Math.max(...numbers) + 1 : 1;
  return next > 999 ? '' : String(next);
}
