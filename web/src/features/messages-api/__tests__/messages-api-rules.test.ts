import { describe, expect, it } from '@jest/globals';
import {
  answerState,
  apiTestRequest,
  canUseExternalApi,
  curlMedia,
  curlText,
  emptyApiTest,
  hasApiTestErrors,
  sendApiTest,
  shellQuote,
  validateApiTest,
  type ApiTestValues,
} from '../messages-api-rules';

const filled = (over: Partial<ApiTestValues> = {}): ApiTestValues => ({
  ...emptyApiTest(),
  token: 'tok-1',
  number: '5511987654321',
  body: 'oi',
  ...over,
});

describe('the external API test form (spec 02 §5)', () => {
  it('needs the token, the number (digits only) and, for a text, the body', () => {
    expect(validateApiTest('text', emptyApiTest())).toEqual({ token: 'required', number: 'required', body: 'required' });
    expect(validateApiTest('text', filled({ number: '+55 (11) 98765-4321' }))).toEqual({ number: 'digitsOnly' });
    expect(validateApiTest('text', filled({ body: '   ' }))).toEqual({ body: 'required' });
    expect(hasApiTestErrors(validateApiTest('text', filled()))).toBe(false);
  });

  it('needs a file for media, the caption optional', () => {
    expect(validateApiTest('media', filled({ body: '' }))).toEqual({ files: 'required' });
    const file = new File(['x'], 'nota.pdf', { type: 'application/pdf' });
    expect(validateApiTest('media', filled({ body: '', files: [file] }))).toEqual({});
  });

  it('follows the plan flag', () => {
    expect(canUseExternalApi({ company: { plan: { useExternalApi: true } } })).toBe(true);
    expect(canUseExternalApi({ company: { plan: { useExternalApi: false } } })).toBe(false);
    expect(canUseExternalApi(null)).toBe(false);
  });
});

describe('the call', () => {
  it('a text is JSON with the typed token; files are multipart with number, body and medias', () => {
    const text = apiTestRequest('text', filled({ token: ' tok-1 ', number: ' 5511987654321 ' }));
    expect(text.headers).toMatchObject({ authorization: 'Bearer tok-1', 'content-type': 'application/json' });
    expect(JSON.parse(text.body as string)).toEqual({ number: '5511987654321', body: 'oi' });

    const files = [new File(['a'], 'a.png', { type: 'image/png' }), new File(['b'], 'b.pdf', { type: 'application/pdf' })];
    const media = apiTestRequest('media', filled({ files, body: 'legenda' }));
    expect(media.headers['content-type']).toBeUndefined();
    const form = media.body as FormData;
    expect(form.get('number')).toBe('5511987654321');
    expect(form.get('body')).toBe('legenda');
    expect(form.getAll('medias').map((f) => (f as File).name)).toEqual(['a.png', 'b.pdf']);
  });

  it('goes to the API host without cookies, and reads the answer and Retry-After', async () => {
    const calls: Array<{ url: string; init: RequestInit }> = [];
    const fake = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      (async (url: string | URL | Request, init?: RequestInit) => {
        calls.push({ url: String(url), init: init ?? {} });
        return new Response(JSON.stringify(body), { status, headers });
      }) as typeof fetch;

    const ok = await sendApiTest('http://api.test', 'text', filled(), fake(202, { id: 7, state: 'queued', ack: 0 }));
    expect(calls[0]?.url).toBe('http://api.test/api/messages/send');
    expect(calls[0]?.init).toMatchObject({ method: 'POST', credentials: 'omit' });
    expect(ok).toMatchObject({ status: 202, ok: true, retryAfter: null });
    expect(answerState(ok)).toBe('queued');

    const busy = await sendApiTest(
      'http://api.test',
      'text',
      filled(),
      fake(429, { error: 'ERR_TOO_MANY_ATTEMPTS' }, { 'retry-after': '3' }),
    );
    expect(busy).toMatchObject({ status: 429, ok: false, retryAfter: 3 });
    expect(answerState(busy)).toBeNull();
  });
});

describe('curl examples', () => {
  it('quote what the shell would break', () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    const text = curlText({ baseUrl: 'https://api.test', token: 'T', number: '5511987654321', body: "Olá! It's here" });
    expect(text).toContain(`'https://api.test/api/messages/send'`);
    expect(text).toContain(`-H 'Authorization: Bearer T'`);
    expect(text).toContain(`-d '{"number":"5511987654321","body":"Olá! It'\\''s here"}'`);
    const media = curlMedia({ baseUrl: 'https://api.test', token: 'T', number: '5511987654321', body: 'nota', files: ['a.pdf', 'b.png'] });
    expect(media.split('\n').slice(-2)).toEqual([`  -F 'medias=@a.pdf' \\`, `  -F 'medias=@b.png'`]);
  });
});
