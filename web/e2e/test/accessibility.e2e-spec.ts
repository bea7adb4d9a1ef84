import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { api, launchChromium, poll, productUrls, signIn, step, tokenOf } from './browser';

/**
 * Accessibility (issue 45 §7): axe-core checks the console's main screens in the browser, light and dark, and a
 * serious or critical violation fails (colour contrast, ARIA that points nowhere, a control without a name…).
 * axe is injected into the page; the context bypasses the page's Content-Security-Policy for that one script
 * (`script-src 'self'` refuses an injected one), nothing else of the page changes.
 */
const { webUrl } = productUrls();
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const run = Date.now().toString(36);
const SCREENS = [
  '/tickets',
  '/',
  '/contacts',
  '/connections',
  '/users',
  '/queues',
  '/quick-messages',
  '/schedules',
  '/kanban',
  '/chats',
  '/files',
  '/tags',
  '/settings',
  '/todolist',
  '/helps',
  '/messages-api',
];

let browser: Browser;
let context: BrowserContext;
let page: Page;
const pages = () => (page && !page.isClosed() ? [page] : []);

interface Violation {
  id: string;
  impact: string | null;
  nodes: Array<{ target: string[]; html: string }>;
}

/** axe's serious and critical violations on the page as it is now, as `rule: element` lines. */
async function violations(): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  const found = (await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<{ violations: Violation[] }> } }).axe;
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  })) as Violation[];
  return found
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.impact} ${v.id}: ${n.target.join(' ')} ${n.html.slice(0, 120)}`));
}

beforeAll(async () => {
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1366, height: 820 }, locale: 'pt-BR', bypassCSP: true });
  page = await context.newPage();
});

afterAll(async () => {
  await browser?.close();
});

describe('accessibility (axe)', () => {
  it('the sign-in page has no serious violation', () =>
    step('axe on /login', pages, async () => {
      await page.goto(`${webUrl}/login`);
      await page.getByTestId('login-email').waitFor();
      expect(await violations()).toEqual([]);
    }));

  it('the main screens have none, with a conversation open in the chat, in light and dark', () =>
    step('axe on the main screens', pages, async () => {
      await signIn(page);
      // a conversation to open: a customer's message on the demo's sandbox connection, accepted
      const token = await tokenOf(page);
      const { body: connections } = await api<Array<{ id: number; channel: string; status: string }>>('/whatsapp', token);
      const sandbox = connections.find((c) => c.channel === 'sandbox' && c.status === 'CONNECTED') ?? connections[0];
      const from = `55119${String(Date.now()).slice(-8)}`;
      const sent = await api(`/whatsappsession/${sandbox?.id}/sandbox/inbound`, token, {
        method: 'POST',
        body: JSON.stringify({ from, name: `Acessível ${run}`, body: `Olá (${run})` }),
      });
      expect(sent.status).toBe(202);
      const ticket = await poll('the new ticket', async () => {
        const { body } = await api<{ tickets: Array<{ id: number; uuid: string; contact: { number: string } }> }>(
          `/tickets?searchParam=${from}&showAll=true`,
          token,
        );
        return body.tickets.find((t) => t.contact.number === from);
      });
      expect((await api(`/tickets/${ticket.id}`, token, { method: 'PUT', body: JSON.stringify({ status: 'open' }) })).status).toBe(200);

      const found: string[] = [];
      for (const theme of ['light', 'dark']) {
        await page.evaluate((t) => localStorage.setItem('preferredTheme', t), theme);
        for (const path of [...SCREENS, `/tickets/${ticket.uuid}`]) {
          await page.goto(`${webUrl}${path}`);
          await page.waitForLoadState('load');
          await page.waitForTimeout(1_500); // the screen's data arrives
          if (path.startsWith('/tickets/')) await page.getByTestId('message-input').waitFor();
          found.push(...(await violations()).map((v) => `${theme} ${path} ${v}`));
        }
      }
      expect(found).toEqual([]);
    }));
});
