export interface HttpAnswer<T = any> {
  status: number;
  body: T;
  headers: Headers;
  /** `name=value` of each Set-Cookie */
  cookies: Record<string, { value: string; raw: string }>;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** a raw body sent as is (for malformed JSON tests) */
  rawBody?: string;
  /** a multipart body (file uploads); fetch sets its content type */
  form?: FormData;
  headers?: Record<string, string>;
  cookie?: string;
}

/** A small client over fetch for calling a service the way a browser or API client does. */
export class HttpClient {
  constructor(
    readonly baseUrl: string,
    private readonly defaults: Record<string, string> = {},
  ) {}

  get<T = any>(path: string, opts: RequestOptions = {}) {
    return this.request<T>('GET', path, opts);
  }
  post<T = any>(path: string, opts: RequestOptions = {}) {
    return this.request<T>('POST', path, opts);
  }
  put<T = any>(path: string, opts: RequestOptions = {}) {
    return this.request<T>('PUT', path, opts);
  }
  delete<T = any>(path: string, opts: RequestOptions = {}) {
    return this.request<T>('DELETE', path, opts);
  }

  async request<T = any>(method: string, path: string, opts: RequestOptions = {}): Promise<HttpAnswer<T>> {
    const headers: Record<string, string> = { ...this.defaults, ...(opts.headers ?? {}) };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.cookie) headers.cookie = opts.cookie;
    let body: string | FormData | undefined;
    if (opts.form !== undefined) {
      body = opts.form;
    } else if (opts.rawBody !== undefined) {
      body = opts.rawBody;
      headers['content-type'] ??= 'application/json';
    } else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(new URL(path, this.baseUrl), { method, headers, body, redirect: 'manual' });
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
    const cookies: HttpAnswer['cookies'] = {};
    for (const raw of res.headers.getSetCookie()) {
      const [pair] = raw.split(';');
      const eq = pair.indexOf('=');
      cookies[pair.slice(0, eq).trim()] = { value: pair.slice(eq + 1), raw };
    }
    return { status: res.status, body: parsed as T, headers: res.headers, cookies };
  }
}
