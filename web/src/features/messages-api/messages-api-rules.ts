import type { ApiMessageState } from '@wa/contracts';
import { hasPlanFlag } from '../../app/plan-flags';

/**
 * The public messages API as the /messages-api page documents and tries it (spec 02 §2 "External messages
 * API page", §5, §7 "External messages API"): `POST /api/messages/send` on the product's API host with
 * `Authorization: Bearer <the connection's API token>`.
 */
export const API_SEND_PATH = '/api/messages/send';
export const API_STATUS_PATH = '/api/messages/{id}';

/** The states `GET /api/messages/{id}` reports, in their order. */
export const API_MESSAGE_STATES: ApiMessageState[] = ['queued', 'sent', 'delivered', 'read'];

/** What the API answers when it refuses a call (the error codes of `libs/contracts`), in the order the page lists them. */
export const API_ERRORS: Array<{ status: number; code: string }> = [
  { status: 400, code: 'ERR_VALIDATION' },
  { status: 400, code: 'ERR_WAPP_INVALID_CONTACT' },
  { status: 400, code: 'ERR_WAPP_NOT_INITIALIZED' },
  { status: 401, code: 'ERR_UNAUTHENTICATED' },
  { status: 403, code: 'ERR_NO_PERMISSION' },
  { status: 429, code: 'ERR_TOO_MANY_ATTEMPTS' },
];

/** spec 02 §6: the page (and its menu item) needs the plan's useExternalApi. */
export const canUseExternalApi = (user: Parameters<typeof hasPlanFlag>[0]): boolean => hasPlanFlag(user, 'useExternalApi');

/** The test form's two sections: a text, or files with an optional caption. */
export type ApiTestKind = 'text' | 'media';

export interface ApiTestValues {
  token: string;
  number: string;
  /** the text; the first file's caption in the media section */
  body: string;
  files: File[];
}

/** What is wrong with a field (texts under `messagesApi.validation`). */
export type ApiTestProblem = 'required' | 'digitsOnly';
export type ApiTestErrors = Partial<Record<keyof ApiTestValues, ApiTestProblem>>;

export const emptyApiTest = (): ApiTestValues => ({ token: '', number: '', body: '', files: [] });

/**
 * spec 02 §5: token and number required, the number without a mask (digits only: country code, area code
 * and number); the text required in the text section, a file in the media section (its caption optional).
 */
export function validateApiTest(kind: ApiTestKind, v: ApiTestValues): ApiTestErrors {
  const errors: ApiTestErrors = {};
  if (!v.token.trim()) errors.token = 'required';
  const number = v.number.trim();
  if (!number) errors.number = 'required';
  else if (!/^\d+$/.test(number)) errors.number = 'digitsOnly';
  if (kind === 'text' && !v.body.trim()) errors.body = 'required';
  if (kind === 'media' && v.files.length === 0) errors.files = 'required';
  return errors;
}

export const hasApiTestErrors = (e: ApiTestErrors): boolean => Object.values(e).some(Boolean);

/** The call's body and headers: JSON for a text, multipart (number, body, medias) for files. */
export function apiTestRequest(kind: ApiTestKind, v: ApiTestValues): { headers: Record<string, string>; body: string | FormData } {
  const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${v.token.trim()}` };
  if (kind === 'text') {
    return { headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ number: v.number.trim(), body: v.body }) };
  }
  // the browser writes the multipart content type with its boundary
  const form = new FormData();
  form.append('number', v.number.trim());
  form.append('body', v.body);
  for (const file of v.files) form.append('medias', file, file.name);
  return { headers, body: form };
}

/** The API's answer as the form shows it. */
export interface ApiTestAnswer {
  status: number;
  ok: boolean;
  /** the JSON answer (or its text when it is not JSON) */
  body: unknown;
  /** seconds, from the Retry-After header of a 429 */
  retryAfter: number | null;
}

/**
 * Sends the form's message with the token typed in it: never the signed-in user's token and never the
 * session's cookies (`credentials: 'omit'`), as an outside system would call the API. A network failure
 * rejects.
 */
export async function sendApiTest(
  baseUrl: string,
  kind: ApiTestKind,
  v: ApiTestValues,
  fetchFn: typeof fetch = (...a) => fetch(...a),
): Promise<ApiTestAnswer> {
  const { headers, body } = apiTestRequest(kind, v);
  const res = await fetchFn(`${baseUrl}${API_SEND_PATH}`, { method: 'POST', headers, body, credentials: 'omit', cache: 'no-store' });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON (a proxy's page): shown as text
  }
  const retry = Number(res.headers.get('retry-after'));
  return { status: res.status, ok: res.ok, body: parsed, retryAfter: Number.isFinite(retry) && retry > 0 ? retry : null };
}

/** The state of a 202 answer (`queued` right after the call). */
export function answerState(answer: ApiTestAnswer | null): ApiMessageState | null {
  const state = answer?.ok && answer.body && typeof answer.body === 'object' ? (answer.body as { state?: unknown }).state : undefined;
  return typeof state === 'string' && (API_MESSAGE_STATES as string[]).includes(state) ? (state as ApiMessageState) : null;
}

/** A value in single quotes for a POSIX shell. */
export const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

export interface CurlExample {
  baseUrl: string;
  token: string;
  number: string;
  body: string;
}

/** `curl` sending a text (JSON body). */
export function curlText(e: CurlExample): string {
  return [
    `curl -X POST ${shellQuote(`${e.baseUrl}${API_SEND_PATH}`)} \\`,
    `  -H ${shellQuote(`Authorization: Bearer ${e.token}`)} \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d ${shellQuote(JSON.stringify({ number: e.number, body: e.body }))}`,
  ].join('\n');
}

/** `curl` sending files (multipart): the body is the first file's caption. */
export function curlMedia(e: CurlExample & { files: string[] }): string {
  return [
    `curl -X POST ${shellQuote(`${e.baseUrl}${API_SEND_PATH}`)} \\`,
    `  -H ${shellQuote(`Authorization: Bearer ${e.token}`)} \\`,
    `  -F ${shellQuote(`number=${e.number}`)} \\`,
    `  -F ${shellQuote(`body=${e.body}`)} \\`,
    ...e.files.map((f, i) => `  -F ${shellQuote(`medias=@${f}`)}${i < e.files.length - 1 ? ' \\' : ''}`),
  ].join('\n');
}

/** `curl` asking a message's state. */
export function curlStatus(e: Pick<CurlExample, 'baseUrl' | 'token'> & { id: number }): string {
  return [
    `curl ${shellQuote(`${e.baseUrl}${API_STATUS_PATH.replace('{id}', String(e.id))}`)} \\`,
    `  -H ${shellQuote(`Authorization: Bearer ${e.token}`)}`,
  ].join('\n');
}

/** The example of a 202 answer the page shows. */
export function exampleAnswer(e: Pick<CurlExample, 'number' | 'body'>): string {
  const at = '2025-01-15T13:45:10.123Z';
  return JSON.stringify(
    { id: 1234, ticketId: 56, number: e.number, body: e.body, mediaType: 'chat', state: 'queued', ack: 0, createdAt: at, updatedAt: at },
    null,
    2,
  );
}
