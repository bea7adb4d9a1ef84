import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { E2E_DEFAULTS, root, urlsFor } from '../support/product.mjs';

/** Debian's Chromium, headless; never a downloaded browser. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
  // a stand-in microphone (a tone) that needs no permission prompt: audio recording is tested too
  '--use-fake-ui-for-media-stream',
  '--use-fake-device-for-media-stream',
  '--autoplay-policy=no-user-gesture-required',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
}

/** Where the product under test answers (the one global-setup started, or WEB_E2E_WEB_URL / WEB_E2E_API_URL). */
export function productUrls(): { webUrl: string; apiUrl: string; mailUrl: string } {
  const started = urlsFor(E2E_DEFAULTS.portOffset);
  return {
    webUrl: process.env.WEB_E2E_WEB_URL ?? started.webUrl,
    apiUrl: process.env.WEB_E2E_API_URL ?? started.apiUrl,
    mailUrl: process.env.WEB_E2E_MAIL_URL ?? started.mailUrl,
  };
}

const shots = join(root, 'reports/screenshots');

/** Runs a step; on failure, every open page is saved to reports/screenshots/ before the error goes on. */
export async function step<T>(name: string, pages: () => Page[], fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    mkdirSync(shots, { recursive: true });
    const slug = name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
    await Promise.all(
      pages().map((p, i) => p.screenshot({ path: join(shots, `web-e2e-${slug}-${i + 1}.png`), fullPage: true }).catch(() => undefined)),
    );
    if (err instanceof Error) {
      const told = await withWhereItStood(err.message, pages());
      // jest prints the stack, which begins with the message as it was
      if (err.stack?.includes(err.message)) err.stack = err.stack.replace(err.message, told);
      err.message = told;
    }
    throw err;
  }
}

/**
 * A failure's first line is all a CI summary shows (the screenshots stay on the machine that ran it): it is
 * given the last thing Playwright's call log says it waited for (what intercepted a click, say), and what the
 * first page showed then (its path, its toasts and open dialogs).
 */
async function withWhereItStood(message: string, pages: Page[]): Promise<string> {
  const [first, ...rest] = message.split('\n');
  const waited = rest
    // eslint-disable-next-line no-control-regex -- the call log is coloured
    .map((l) => l.replace(/\u001b\[[0-9;]*m/g, '').trim())
    .filter((l) => l.startsWith('- '))
    .at(-1);
  const page = pages[0];
  let shown = '';
  if (page) {
    const texts = async (selector: string) =>
      (
        await page
          .locator(selector)
          .allInnerTexts()
          .catch(() => [] as string[])
      ).map((t) => t.replace(/\s+/g, ' ').trim().slice(0, 80));
    const toasts = await texts('[data-scope=toast][data-part=root]');
    const dialogs = await texts('[role=dialog]');
    shown = ` (on ${new URL(page.url()).pathname}; toasts: ${JSON.stringify(toasts)}; dialogs: ${JSON.stringify(dialogs)})`;
  }
  return [`${first}${waited ? ` [${waited.slice(2)}]` : ''}${shown}`, ...rest].join('\n');
}

export async function poll<T>(what: string, fn: () => Promise<T | undefined | null | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A JSON call to the product's API host (`token`: a signed-in page's access token, or null for none). */
export async function api<T>(path: string, token: string | null, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  const res = await fetch(`${productUrls().apiUrl}${path}`, {
    ...init,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json', ...(init.headers ?? {}) },
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** The access token the console keeps for a signed-in page. */
export const tokenOf = (p: Page): Promise<string> => p.evaluate(() => localStorage.getItem('token') ?? '');

/** Signs in through the login page (the demo's admin unless told) and waits for the tickets page. */
export async function signIn(p: Page, email = 'admin@admin.com', password = '123456'): Promise<void> {
  const { webUrl } = productUrls();
  await p.goto(`${webUrl}/login`);
  await p.getByTestId('login-email').fill(email);
  await p.getByTestId('login-password').fill(password);
  await p.getByTestId('login-submit').click();
  await p.waitForURL(`${webUrl}/tickets`);
}

/** A desktop-sized page in Portuguese, signed in as the demo's admin (the usual start of a browser test). */
export async function signedInPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 820 }, locale: 'pt-BR' });
  const page = await context.newPage();
  await signIn(page);
  return page;
}
