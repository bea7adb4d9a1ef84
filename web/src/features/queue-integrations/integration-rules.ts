import type { CreateQueueIntegrationRequest, QueueIntegrationDto, TestDialogflowSessionRequest } from '@wa/contracts';
import { validateConnectionName } from '../../components/form-rules';

export type IntegrationType = QueueIntegrationDto['type'];

/** spec 02 §9: the integration types, in the order the type select offers them. */
export const INTEGRATION_TYPES: readonly IntegrationType[] = ['dialogflow', 'n8n', 'webhook', 'typebot'];

/** spec 02 §5: Dialogflow's languages. */
export const DIALOGFLOW_LANGUAGES = ['pt-BR', 'en', 'es'] as const;

/** What the server answers for stored Dialogflow credentials; sent back as is, it keeps them. */
export const CREDENTIALS_MASK = '••••••••';

/** spec 02 §9: typebot defaults (minutes a session lasts, ms between the messages of an answer). */
export const TYPEBOT_DEFAULTS = { typebotExpires: 1, typebotDelayMessage: 1000 } as const;

/** The bounds the server keeps (services/tickets queue-integrations.dto.ts). */
export const TYPEBOT_LIMITS = {
  typebotExpires: { min: 0, max: 10_080 },
  typebotDelayMessage: { min: 0, max: 60_000 },
} as const;

/** Which fields each type has (besides type and name). */
export function integrationFields(type: IntegrationType): { url: boolean; typebot: boolean; dialogflow: boolean } {
  return { url: type !== 'dialogflow', typebot: type === 'typebot', dialogflow: type === 'dialogflow' };
}

export interface IntegrationFormValues {
  type: IntegrationType;
  name: string;
  projectName: string;
  /** Dialogflow's service-account JSON; CREDENTIALS_MASK while the stored one is kept */
  jsonContent: string;
  language: string;
  urlN8N: string;
  typebotSlug: string;
  /** as typed */
  typebotExpires: string;
  typebotDelayMessage: string;
  typebotKeywordFinish: string;
  typebotKeywordRestart: string;
  typebotUnknownMessage: string;
  typebotRestartMessage: string;
}

/** What is wrong with a field (texts under `validation`, then `queueIntegrations.validation`). */
export type IntegrationProblem = 'required' | 'tooShort' | 'tooLong' | 'invalidUrl' | 'integer';
export type IntegrationErrors = Partial<Record<keyof IntegrationFormValues, IntegrationProblem>>;

/** An address the product can call: http or https. */
export function isHttpUrl(text: string): boolean {
  try {
    const u = new URL(text.trim());
    return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname;
  } catch {
    return false;
  }
}

function checkInteger(text: string, field: keyof typeof TYPEBOT_LIMITS): IntegrationProblem | null {
  const t = text.trim();
  if (!t) return 'required';
  const n = Number(t);
  const { min, max } = TYPEBOT_LIMITS[field];
  return /^\d+$/.test(t) && n >= min && n <= max ? null : 'integer';
}

/**
 * spec 02 §5: the name is required, 2 to 50 (Required, Too Short!, Too Long!); n8n and webhook need the URL;
 * typebot the URL and its slug; dialogflow its project, its credentials and a language (pt-BR, en, es).
 */
export function validateIntegrationForm(v: IntegrationFormValues): IntegrationErrors {
  const errors: IntegrationErrors = {};
  const fields = integrationFields(v.type);
  const name = validateConnectionName(v.name);
  if (name) errors.name = name;
  if (fields.url) {
    if (!v.urlN8N.trim()) errors.urlN8N = 'required';
    else if (!isHttpUrl(v.urlN8N)) errors.urlN8N = 'invalidUrl';
  }
  if (fields.typebot) {
    if (!v.typebotSlug.trim()) errors.typebotSlug = 'required';
    const expires = checkInteger(v.typebotExpires, 'typebotExpires');
    const delay = checkInteger(v.typebotDelayMessage, 'typebotDelayMessage');
    if (expires) errors.typebotExpires = expires;
    if (delay) errors.typebotDelayMessage = delay;
  }
  if (fields.dialogflow) {
    if (!v.projectName.trim()) errors.projectName = 'required';
    if (!v.jsonContent.trim()) errors.jsonContent = 'required';
    if (!(DIALOGFLOW_LANGUAGES as readonly string[]).includes(v.language)) errors.language = 'required';
  }
  return errors;
}

export const hasIntegrationErrors = (e: IntegrationErrors): boolean => Object.values(e).some(Boolean);

/** A new integration (typebot, with its defaults, until another type is chosen) or a saved one as the server has it. */
export function integrationFormOf(i: QueueIntegrationDto | null): IntegrationFormValues {
  return {
    type: i?.type ?? 'typebot',
    name: i?.name ?? '',
    projectName: i?.projectName ?? '',
    jsonContent: i?.jsonContent ?? '',
    language: i?.language || DIALOGFLOW_LANGUAGES[0],
    urlN8N: i?.urlN8N ?? '',
    typebotSlug: i?.typebotSlug ?? '',
    typebotExpires: String(i?.typebotExpires ?? TYPEBOT_DEFAULTS.typebotExpires),
    typebotDelayMessage: String(i?.typebotDelayMessage ?? TYPEBOT_DEFAULTS.typebotDelayMessage),
    typebotKeywordFinish: i?.typebotKeywordFinish ?? '',
    typebotKeywordRestart: i?.typebotKeywordRestart ?? '',
    typebotUnknownMessage: i?.typebotUnknownMessage ?? '',
    typebotRestartMessage: i?.typebotRestartMessage ?? '',
  };
}

/** What the dialog sends to `POST /queueIntegration` and `PUT /queueIntegration/{id}`: the type's own fields, the project name always. */
export type IntegrationBody = CreateQueueIntegrationRequest & { projectName: string };

/**
 * The body of a valid form. spec 02 §5: for n8n, webhook and typebot the project name is the name (the
 * server sets it too). Dialogflow's credentials go as shown: the mask keeps the stored ones.
 */
export function integrationPayload(v: IntegrationFormValues): IntegrationBody {
  const fields = integrationFields(v.type);
  const name = v.name.trim();
  if (fields.dialogflow) {
    return { type: v.type, name, projectName: v.projectName.trim(), jsonContent: v.jsonContent.trim(), language: v.language };
  }
  const body: IntegrationBody = { type: v.type, name, projectName: name, urlN8N: v.urlN8N.trim() };
  if (!fields.typebot) return body;
  return {
    ...body,
    typebotSlug: v.typebotSlug.trim(),
    typebotExpires: Number(v.typebotExpires.trim()),
    typebotDelayMessage: Number(v.typebotDelayMessage.trim()),
    typebotKeywordFinish: v.typebotKeywordFinish.trim(),
    typebotKeywordRestart: v.typebotKeywordRestart.trim(),
    typebotUnknownMessage: v.typebotUnknownMessage,
    typebotRestartMessage: v.typebotRestartMessage,
  };
}

/** Whether the Dialogflow session can be tried: the project and the credentials in clear (the mask is not them). */
export function testSessionOf(v: IntegrationFormValues): TestDialogflowSessionRequest | 'missing' | 'masked' {
  if (v.jsonContent.trim() === CREDENTIALS_MASK) return 'masked';
  if (!v.projectName.trim() || !v.jsonContent.trim()) return 'missing';
  return { projectName: v.projectName.trim(), jsonContent: v.jsonContent.trim(), language: v.language };
}
