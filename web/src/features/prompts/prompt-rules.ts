import type { CreatePromptRequest, PromptDto } from '@wa/contracts';

/**
 * spec 02 §9 "Voices: text or sixteen Brazilian Portuguese neural voices": 'texto' answers in writing; the
 * others are Azure neural voice names (the answer is sent as audio, with the voice key and region).
 */
export const TEXT_VOICE = 'texto';
export const PT_BR_NEURAL_VOICES = [
  'pt-BR-FranciscaNeural',
  'pt-BR-AntonioNeural',
  'pt-BR-BrendaNeural',
  'pt-BR-DonatoNeural',
  'pt-BR-ElzaNeural',
  'pt-BR-FabioNeural',
  'pt-BR-GiovannaNeural',
  'pt-BR-HumbertoNeural',
  'pt-BR-JulioNeural',
  'pt-BR-LeilaNeural',
  'pt-BR-LeticiaNeural',
  'pt-BR-ManuelaNeural',
  'pt-BR-NicolauNeural',
  'pt-BR-ThalitaNeural',
  'pt-BR-ValerioNeural',
  'pt-BR-YaraNeural',
] as const;
export const PROMPT_VOICES: readonly string[] = [TEXT_VOICE, ...PT_BR_NEURAL_VOICES];

/** spec 02 §9: the prompt's defaults. */
export const PROMPT_DEFAULTS = { voice: TEXT_VOICE, maxTokens: 100, temperature: 1, maxMessages: 10 } as const;

/** The bounds the server keeps (services/tickets prompts.dto.ts). */
export const PROMPT_LIMITS = {
  maxTokens: { min: 1, max: 4096 },
  temperature: { min: 0, max: 2 },
  maxMessages: { min: 1, max: 50 },
} as const;

export interface PromptFormValues {
  name: string;
  prompt: string;
  /** '' until one is chosen */
  queueId: number | '';
  voice: string;
  /** as shown: a saved key comes masked ('••••••••abcd'), and sent back so it is kept */
  voiceKey: string;
  voiceRegion: string;
  /** as typed */
  maxTokens: string;
  temperature: string;
  maxMessages: string;
  /** as shown: a saved key comes masked ('••••••••abcd'), and sent back so it is kept */
  apiKey: string;
}

/**
 * What is wrong with a field (texts under `prompts.validation`). spec 02 §5: the form checks only that a
 * queue is chosen ('Informe o setor'); name and prompt lengths are the server's (its messages show on the
 * fields). The numbers are checked here, since a word cannot be sent as one.
 */
export type PromptProblem = 'queueRequired' | 'integer' | 'number';
export type PromptNumberField = keyof typeof PROMPT_LIMITS;
export type PromptErrors = Partial<Record<'queueId' | PromptNumberField, PromptProblem>>;

/** A typed number: a comma is read as the decimal point; '' and anything else is NaN. */
export function parseNumber(text: string): number {
  const t = text.trim().replace(',', '.');
  return t && /^-?\d+(\.\d+)?$/.test(t) ? Number(t) : NaN;
}

function checkNumber(text: string, field: PromptNumberField, integer: boolean): PromptProblem | null {
  const n = parseNumber(text);
  const { min, max } = PROMPT_LIMITS[field];
  if (Number.isNaN(n) || n < min || n > max || (integer && !Number.isInteger(n))) return integer ? 'integer' : 'number';
  return null;
}

export function validatePromptForm(v: PromptFormValues): PromptErrors {
  const errors: PromptErrors = {};
  if (v.queueId === '') errors.queueId = 'queueRequired';
  const maxTokens = checkNumber(v.maxTokens, 'maxTokens', true);
  const temperature = checkNumber(v.temperature, 'temperature', false);
  const maxMessages = checkNumber(v.maxMessages, 'maxMessages', true);
  if (maxTokens) errors.maxTokens = maxTokens;
  if (temperature) errors.temperature = temperature;
  if (maxMessages) errors.maxMessages = maxMessages;
  return errors;
}

export const hasPromptErrors = (e: PromptErrors): boolean => Object.values(e).some(Boolean);

/** A new prompt starts with the spec's defaults; a saved one as the server has it (its key masked). */
export function promptFormOf(p: PromptDto | null): PromptFormValues {
  if (!p) {
    return {
      name: '',
      prompt: '',
      queueId: '',
      voice: PROMPT_DEFAULTS.voice,
      voiceKey: '',
      voiceRegion: '',
      maxTokens: String(PROMPT_DEFAULTS.maxTokens),
      temperature: String(PROMPT_DEFAULTS.temperature),
      maxMessages: String(PROMPT_DEFAULTS.maxMessages),
      apiKey: '',
    };
  }
  return {
    name: p.name,
    prompt: p.prompt,
    queueId: p.queueId ?? '',
    voice: p.voice || PROMPT_DEFAULTS.voice,
    voiceKey: p.voiceKey ?? '',
    voiceRegion: p.voiceRegion ?? '',
    maxTokens: String(p.maxTokens ?? PROMPT_DEFAULTS.maxTokens),
    temperature: String(p.temperature ?? PROMPT_DEFAULTS.temperature),
    maxMessages: String(p.maxMessages ?? PROMPT_DEFAULTS.maxMessages),
    apiKey: p.apiKey ?? '',
  };
}

/** What the prompt form sends to `POST /prompt` and `PUT /prompt/{id}`: every field, the API key as shown (the masked key keeps the stored one, '' removes it). */
export type PromptBody = Required<CreatePromptRequest>;

/** The body of a valid form (validatePromptForm found nothing). */
export function promptPayload(v: PromptFormValues): PromptBody {
  return {
    name: v.name.trim(),
    prompt: v.prompt,
    queueId: v.queueId === '' ? NaN : v.queueId,
    voice: v.voice || PROMPT_DEFAULTS.voice,
    voiceKey: v.voiceKey.trim(),
    voiceRegion: v.voiceRegion.trim(),
    maxTokens: parseNumber(v.maxTokens),
    temperature: parseNumber(v.temperature),
    maxMessages: parseNumber(v.maxMessages),
    apiKey: v.apiKey.trim(),
  };
}

/** Whether the voice answers with audio (and so needs the voice service's key and region). */
export const isNeuralVoice = (voice: string): boolean => voice !== TEXT_VOICE;
