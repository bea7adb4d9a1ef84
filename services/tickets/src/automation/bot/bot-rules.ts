import { nextOpening, withinWorkingHours, type WorkingDay } from '@wa/domain';
import { BOT_DEFAULTS, type BotState, type ConnectionBot } from '../../database/entities/index.js';
import { ratingRequestText } from '../../conversation/tickets/use-cases/rating-request.js';

export { BOT_DEFAULTS, ratingRequestText, type BotState, type ConnectionBot };

/**
 * The bot's rules (issue 15, spec 02 "Queue option", the connection's bot settings of spec 01): what the bot
 * answers a customer's message on a waiting ticket, where the ticket goes, and where the bot is after it.
 * Pure: `BotService` loads what these need, applies the outcome in one transaction and sends the replies
 * through the same outbox and provider as an agent's.
 */

export interface BotOption {
  id: number;
  queueId: number;
  parentId: number | null;
  /** the number the customer answers with */
  option: number;
  title: string;
  message: string;
  /** its file (a media storage key), sent with its message */
  mediaPath?: string | null;
}

export interface BotQueue {
  id: number;
  name: string;
  greetingMessage: string;
  outOfHoursMessage: string;
  schedules: WorkingDay[];
  /** the AI prompt answering its customers (its own promptId, or a prompt naming it); null: none */
  promptId?: number | null;
  /** the outside flow answering its customers (webhook, n8n, Typebot, Dialogflow); null: none */
  integrationId?: number | null;
  /** its file (a media storage key), sent with the greeting or options of the queue when a ticket enters it */
  mediaPath?: string | null;
}

/** A queue whose customers an AI prompt or an outside flow answers. */
const delegated = (q: BotQueue) => Boolean(q.integrationId || q.promptId);

export interface BotSettings {
  /** disabled, company or queue */
  scheduleType: string;
  companySchedules: WorkingDay[];
  /** with a single queue, greet the customer (enabled) or stay quiet when it has no options */
  sendGreetingMessageOneQueues: boolean;
  timeZone: string;
}

export interface BotInput {
  state: BotState | null;
  body: string;
  now: Date;
  /** the connection's queues in menu order (orderQueue, then name) */
  queues: BotQueue[];
  /** every option of those queues */
  options: BotOption[];
  connection: ConnectionBot & { greetingMessage: string };
  settings: BotSettings;
  /** the ticket's queue now */
  queueId: number | null;
}

export interface BotOutcome {
  replies: string[];
  state: BotState;
  /** the ticket's queue after this message (unchanged when equal to the input's) */
  queueId: number | null;
  /** the bot still expects an answer (the ticket's `chatbot` flag) */
  chatbot: boolean;
  /** this message goes to the queue's AI prompt, which answers it (after the bot's transaction) */
  delegate?: boolean;
  /** the file of the queue entered or the option picked (a media storage key): it goes with the first reply as its caption, or alone */
  mediaPath?: string;
}

/** The outcome with the file of the queue or option it reached, when that has one. */
const withFile = (outcome: BotOutcome, mediaPath: string | null | undefined): BotOutcome =>
  mediaPath ? { ...outcome, mediaPath } : outcome;

/** A customer asking for a person: the AI hands the conversation to the queue's agents. */
const HUMAN = /\b(atendente|humano|humana|pessoa|operador|operadora|agente)\b/i;

export function asksForHuman(body: string): boolean {
  return HUMAN.test(body);
}

export const INVALID_OPTION = 'Opção inválida! Responda apenas com o número de uma das opções abaixo.';
export const BACK_ENTRY = '*[ 0 ]* - Menu anterior';
export const RESTART_ENTRY = '*[ # ]* - Menu inicial';

/** A numbered menu as the product writes it: the intro, then `*[ n ]* - title` per entry. */
export function menuText(intro: string, entries: Array<{ number: number; title: string }>, navigation: boolean): string {
  const lines = entries.map((e) => `*[ ${e.number} ]* - ${e.title}`);
  if (navigation) lines.push('', BACK_ENTRY, RESTART_ENTRY);
  const head = intro.trim();
  return head ? `${head}\n\n${lines.join('\n')}` : lines.join('\n');
}

/** A customer's answer to the rating request: 1, 2 or 3, else null. */
export function ratingOf(body: string): 1 | 2 | 3 | null {
  const t = body.trim();
  return t === '1' || t === '2' || t === '3' ? (Number(t) as 1 | 2 | 3) : null;
}

/**
 * Whether the ticket is outside working hours: the company's (scheduleType company) or its queue's
 * (scheduleType queue, once it has a queue); with the text to send and the hours that apply.
 */
export function outOfHours(
  input: Pick<BotInput, 'now' | 'queues' | 'connection' | 'settings'>,
  queueId: number | null,
): { text: string; hours: WorkingDay[] } | null {
  const { settings, now } = input;
  if (settings.scheduleType === 'company') {
    if (withinWorkingHours(settings.companySchedules, settings.timeZone, now)) return null;
    return { text: input.connection.outOfHoursMessage ?? '', hours: settings.companySchedules };
  }
  if (settings.scheduleType === 'queue' && queueId !== null) {
    const queue = input.queues.find((q) => q.id === queueId);
    if (!queue || withinWorkingHours(queue.schedules, settings.timeZone, now)) return null;
    return { text: queue.outOfHoursMessage || input.connection.outOfHoursMessage || '', hours: queue.schedules };
  }
  return null;
}

const childrenOf = (options: BotOption[], queueId: number, parentId: number | null) =>
  options.filter((o) => o.queueId === queueId && o.parentId === parentId).sort((a, b) => a.option - b.option);

/**
 * The bot's answer to one customer message on a waiting ticket nobody has taken.
 *
 * - Outside working hours the out-of-hours text goes once per period (until the next opening) and the menu
 *   does not move.
 * - A ticket the bot has not seen: with several queues, the connection's greeting and the queues' menu;
 *   with one, its options' first level (with the queue's greeting), or the greeting alone when the
 *   company greets single-queue customers; with none, nothing.
 * - A number picks a queue (the ticket moves into it) or an option (its message; its children's menu, or the
 *   end of the bot for a leaf). `0` goes back a level, `#` to the first menu.
 * - Anything else repeats the menu with a notice, at most `maxUseBotQueues` times within
 *   `timeUseBotQueues`; one more and the ticket goes to the transfer queue (or stays where it is, waiting
 *   for anyone) and the bot is quiet from then on. It never loops.
 */
export function botReply(input: BotInput): BotOutcome {
  const { now, queues, options, connection } = input;
  const state: BotState = input.state ? { ...input.state } : { step: 'queues', attempts: 0 };
  const fresh = !state.greeted && state.step !== 'done';
  const quiet = (queueId: number | null = input.queueId): BotOutcome => ({
    replies: [],
    state: { ...state, step: 'done' },
    queueId,
    chatbot: false,
  });

  // outside working hours: one reply per period, and the menu waits
  const closed = outOfHours(input, input.queueId);
  if (closed) {
    if (state.quietUntil && now.getTime() < new Date(state.quietUntil).getTime())
      return { replies: [], state, queueId: input.queueId, chatbot: state.step !== 'done' };
    const until = nextOpening(closed.hours, input.settings.timeZone, now);
    // no day ever opens: quiet for a week, then once more
    state.quietUntil = (until ?? new Date(now.getTime() + 7 * 24 * 3600_000)).toISOString();
    return { replies: closed.text.trim() ? [closed.text] : [], state, queueId: input.queueId, chatbot: state.step !== 'done' };
  }
  if (!fresh && state.step === 'done') return { replies: [], state, queueId: input.queueId, chatbot: false };

  const queuesMenu = (intro: string) =>
    menuText(
      intro,
      queues.map((q, i) => ({ number: i + 1, title: q.name })),
      false,
    );
  const optionsMenu = (queueId: number, parentId: number | null, intro: string) =>
    menuText(
      intro,
      childrenOf(options, queueId, parentId).map((o) => ({ number: o.option, title: o.title })),
      true,
    );

  /** The ticket enters a queue: its options' first level, or its greeting and the end of the bot. */
  const enterQueue = (queue: BotQueue, greet: boolean): BotOutcome => {
    const closedQueue = outOfHours(input, queue.id);
    if (closedQueue) {
      const until = nextOpening(closedQueue.hours, input.settings.timeZone, now);
      const next = {
        ...state,
        step: 'done' as const,
        queueId: queue.id,
        attempts: 0,
        firstMissAt: undefined,
        quietUntil: (until ?? new Date(now.getTime() + 7 * 24 * 3600_000)).toISOString(),
      };
      return { replies: closedQueue.text.trim() ? [closedQueue.text] : [], state: next, queueId: queue.id, chatbot: false };
    }
    const next: BotState = { ...state, queueId: queue.id, parentId: null, attempts: 0, firstMissAt: undefined };
    if (childrenOf(options, queue.id, null).length > 0) {
      return withFile(
        {
          replies: [optionsMenu(queue.id, null, queue.greetingMessage)],
          state: { ...next, step: 'options' },
          queueId: queue.id,
          chatbot: true,
        },
        queue.mediaPath,
      );
    }
    const greeting = queue.greetingMessage.trim();
    if (!greet)
      return {
        replies: [],
        state: { ...next, step: delegated(queue) ? 'delegate' : 'done' },
        queueId: queue.id,
        chatbot: delegated(queue),
      };
    if (delegated(queue))
      return withFile(
        { replies: greeting ? [greeting] : [], state: { ...next, step: 'delegate' }, queueId: queue.id, chatbot: true },
        queue.mediaPath,
      );
    return withFile(
      { replies: greeting ? [greeting] : [], state: { ...next, step: 'done' }, queueId: queue.id, chatbot: false },
      queue.mediaPath,
    );
  };

  function startOf(): BotOutcome {
    if (queues.length === 0) return quiet();
    if (queues.length === 1) {
      const only = queues[0] as BotQueue;
      // a single queue with an AI prompt or an outside flow: it answers this very message
      if (delegated(only) && childrenOf(options, only.id, null).length === 0 && !outOfHours(input, only.id)) {
        // (asking for a person at once: the queue's agents take it)
        if (asksForHuman(input.body))
          return {
            replies: [],
            state: { ...state, step: 'done', queueId: only.id, parentId: null, attempts: 0 },
            queueId: only.id,
            chatbot: false,
          };
        return {
          replies: [],
          state: { ...state, step: 'delegate', queueId: only.id, parentId: null, attempts: 0 },
          queueId: only.id,
          chatbot: true,
          delegate: true,
        };
      }
      const outcome = enterQueue(only, input.settings.sendGreetingMessageOneQueues);
      // a single queue without options greets with the connection's greeting, or the queue's
      if (
        outcome.replies.length === 0 &&
        input.settings.sendGreetingMessageOneQueues &&
        connection.greetingMessage.trim() &&
        outcome.state.step === 'done' &&
        !outOfHours(input, only.id)
      ) {
        return { ...outcome, replies: [connection.greetingMessage] };
      }
      return outcome;
    }
    return {
      replies: [queuesMenu(connection.greetingMessage)],
      state: { ...state, step: 'queues', attempts: 0 },
      queueId: input.queueId,
      chatbot: true,
    };
  }

  /** an answer the menu does not know: the menu again, or the hand-over past the limit */
  const miss = (menu: string): BotOutcome => {
    const windowMs = (connection.timeUseBotQueues ?? BOT_DEFAULTS.timeUseBotQueues) * 60_000;
    const restart = !state.firstMissAt || (windowMs > 0 && now.getTime() - new Date(state.firstMissAt).getTime() > windowMs);
    const attempts = restart ? 1 : state.attempts + 1;
    const max = connection.maxUseBotQueues ?? BOT_DEFAULTS.maxUseBotQueues;
    if (max > 0 && attempts > max) {
      const target = connection.transferQueueId ?? null;
      return { replies: [], state: { ...state, step: 'done', attempts }, queueId: target ?? input.queueId, chatbot: false };
    }
    return {
      replies: [`${INVALID_OPTION}\n\n${menu}`],
      state: { ...state, attempts, firstMissAt: restart ? now.toISOString() : state.firstMissAt },
      queueId: input.queueId,
      chatbot: true,
    };
  };

  const firstMenu = (): BotOutcome => {
    if (queues.length > 1)
      return {
        replies: [queuesMenu(connection.greetingMessage)],
        state: { ...state, step: 'queues', queueId: undefined, parentId: null },
        queueId: input.queueId,
        chatbot: true,
      };
    const only = queues[0];
    if (!only) return quiet();
    return enterQueue(only, true);
  };

  if (fresh) {
    const first = startOf();
    first.state.greeted = true;
    return first;
  }
  return answerOf(input.body.trim());

  function answerOf(answer: string): BotOutcome {
    if (state.step === 'delegate') {
      if (answer === '#' && queues.length > 1) return firstMenu();
      // asking for a person: the queue's agents take it from here
      if (asksForHuman(answer)) return { replies: [], state: { ...state, step: 'done' }, queueId: input.queueId, chatbot: false };
      return { replies: [], state, queueId: input.queueId, chatbot: true, delegate: true };
    }
    if (state.step === 'queues') {
      if (answer === '#' || answer === '0') return firstMenu();
      const n = /^\d{1,3}$/.test(answer) ? Number(answer) : NaN;
      const queue = queues[n - 1];
      if (queue) return enterQueue(queue, true);
      return miss(queuesMenu(connection.greetingMessage));
    }

    // step options
    const queue = queues.find((q) => q.id === state.queueId);
    if (!queue) return firstMenu();
    const parentId = state.parentId ?? null;
    const parent = parentId === null ? null : (options.find((o) => o.id === parentId) ?? null);
    const levelIntro = parent ? parent.message : queue.greetingMessage;
    if (answer === '#') return firstMenu();
    if (answer === '0') {
      if (parentId === null || !parent) return firstMenu();
      const up = parent.parentId;
      const upIntro = up === null ? queue.greetingMessage : (options.find((o) => o.id === up)?.message ?? '');
      return {
        replies: [optionsMenu(queue.id, up, upIntro)],
        state: { ...state, parentId: up, attempts: 0, firstMissAt: undefined },
        queueId: input.queueId,
        chatbot: true,
      };
    }
    const n = /^\d{1,3}$/.test(answer) ? Number(answer) : NaN;
    const picked = childrenOf(options, queue.id, parentId).find((o) => o.option === n);
    if (!picked) return miss(optionsMenu(queue.id, parentId, levelIntro));
    if (childrenOf(options, queue.id, picked.id).length > 0) {
      return withFile(
        {
          replies: [optionsMenu(queue.id, picked.id, picked.message)],
          state: { ...state, parentId: picked.id, attempts: 0, firstMissAt: undefined },
          queueId: input.queueId,
          chatbot: true,
        },
        picked.mediaPath,
      );
    }
    // a leaf: its message (and file), and the ticket waits in its queue for the agents
    return withFile(
      {
        replies: picked.message.trim() ? [picked.message] : [],
        state: { ...state, step: 'done', attempts: 0, firstMissAt: undefined },
        queueId: input.queueId,
        chatbot: false,
      },
      picked.mediaPath,
    );
  }
}
