import type { WhatsappDto } from '@wa/contracts';

/** Largest number the server takes for a connection's minutes and counts (connections.dto.ts NUMBER_MAX). */
export const CONNECTION_NUMBER_MAX = 1_000_000;

/** The chatbot settings of a connection, as the server takes them (PUT /whatsapp/{id}, POST /whatsapp). */
export interface ConnectionChatbotFields {
  /** the product's own spelling */
  complationMessage: string;
  outOfHoursMessage: string;
  ratingMessage: string;
  expiresInactiveMessage: string;
  /** minutes; 0: never */
  expiresTicket: number;
  /** minutes; 0: never */
  timeToTransfer: number;
  /** null: none */
  transferQueueId: number | null;
  /** minutes between two sendings of the chatbot; 0: no window */
  timeUseBotQueues: number;
  /** how many times the chatbot is sent */
  maxUseBotQueues: number;
  /** only sent when the plan has the prompts (useOpenAi); null: none */
  promptId?: number | null;
}

/** The numbers of the form, in the order they are shown. */
export const CHATBOT_NUMBER_FIELDS = ['expiresTicket', 'timeToTransfer', 'timeUseBotQueues', 'maxUseBotQueues'] as const;
export type ChatbotNumberField = (typeof CHATBOT_NUMBER_FIELDS)[number];

/** The texts of the form, in the order they are shown. */
export const CHATBOT_TEXT_FIELDS = ['complationMessage', 'outOfHoursMessage', 'ratingMessage', 'expiresInactiveMessage'] as const;
export type ChatbotTextField = (typeof CHATBOT_TEXT_FIELDS)[number];

/** The chatbot settings as the form holds them: numbers as typed, selects as an id or '' (none). */
export type ChatbotFormValues = Record<ChatbotTextField, string> &
  Record<ChatbotNumberField, string> & {
    transferQueueId: number | '';
    promptId: number | '';
  };

/** Whaticket's defaults for a new connection: nothing expires or is transferred, the bot is sent up to 3 times. */
const DEFAULTS = { expiresTicket: 0, timeToTransfer: 0, timeUseBotQueues: 0, maxUseBotQueues: 3 } as const;

/** The form's values for a connection (null: a new one). */
export function chatbotFormOf(w: WhatsappDto | null): ChatbotFormValues {
  const num = (k: ChatbotNumberField) => String(w?.[k] ?? DEFAULTS[k]);
  return {
    complationMessage: w?.complationMessage ?? '',
    outOfHoursMessage: w?.outOfHoursMessage ?? '',
    ratingMessage: w?.ratingMessage ?? '',
    expiresInactiveMessage: w?.expiresInactiveMessage ?? '',
    expiresTicket: num('expiresTicket'),
    timeToTransfer: num('timeToTransfer'),
    timeUseBotQueues: num('timeUseBotQueues'),
    maxUseBotQueues: num('maxUseBotQueues'),
    transferQueueId: w?.transferQueueId ?? '',
    promptId: w?.promptId ?? '',
  };
}

/** What is wrong with a number typed into the form: nothing typed, or not a whole number from 0 to the server's maximum. */
export type ChatbotNumberProblem = 'required' | 'wholeNumber';

export function validateChatbotNumber(raw: string): ChatbotNumberProblem | null {
  const s = raw.trim();
  if (!s) return 'required';
  if (!/^\d+$/.test(s) || Number(s) > CONNECTION_NUMBER_MAX) return 'wholeNumber';
  return null;
}

/** The problems of the form's numbers, by field (none: an empty object). */
export function validateChatbotForm(v: ChatbotFormValues): Partial<Record<ChatbotNumberField, ChatbotNumberProblem>> {
  const errors: Partial<Record<ChatbotNumberField, ChatbotNumberProblem>> = {};
  for (const k of CHATBOT_NUMBER_FIELDS) {
    const p = validateChatbotNumber(v[k]);
    if (p) errors[k] = p;
  }
  return errors;
}

/** The body's chatbot settings (numbers as numbers, '' as null); the prompt only when the form shows it. */
export function chatbotPayload(v: ChatbotFormValues, withPrompt: boolean): ConnectionChatbotFields {
  const body: ConnectionChatbotFields = {
    complationMessage: v.complationMessage,
    outOfHoursMessage: v.outOfHoursMessage,
    ratingMessage: v.ratingMessage,
    expiresInactiveMessage: v.expiresInactiveMessage,
    expiresTicket: Number(v.expiresTicket.trim()),
    timeToTransfer: Number(v.timeToTransfer.trim()),
    transferQueueId: v.transferQueueId === '' ? null : v.transferQueueId,
    timeUseBotQueues: Number(v.timeUseBotQueues.trim()),
    maxUseBotQueues: Number(v.maxUseBotQueues.trim()),
  };
  if (withPrompt) body.promptId = v.promptId === '' ? null : v.promptId;
  return body;
}
