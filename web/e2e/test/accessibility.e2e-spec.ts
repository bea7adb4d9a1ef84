import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { api, launchChromium, poll, productUrls, signIn, step, tokenOf } from './browser';

/**
 * Accessibility (issue 45 §7): axe-core checks the console's main screens in the browser, light and dark, with the
 * kind of data a real company has (queues and tags of light colours such as #FFFF00 and #FFFFFF, a tagged
 * conversation with messages, a waiting ticket in the notifications, schedules on the calendar), and a serious or
 * critical violation fails, listed by rule, element and axe's summary. Then what axe cannot see: a customer's
 * message is read out by the chat's live region, and the main dialogs give the focus back to what opened them.
 *
 * axe is injected into the page; the context bypasses the page's Content-Security-Policy for that one script
 * (`script-src 'self'` refuses an injected one), nothing else of the page changes.
 */
const { webUrl } = productUrls();
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const run = Date.now().toString(36);
const SCREENS = [
  '/',
  '/tickets',
  '/contacts',
  '/queues',
  '/users',
  '/connections',
  '/schedules',
  '/kanban',
  '/campaigns',
  '/settings',
  '/tags',
  '/quick-messages',
  '/chats',
  '/files',
  '/todolist',
  '/helps',
  '/messages-api',
  '/contact-lists',
  '/campaigns-config',
  '/prompts',
  '/queue-integration',
  '/announcements',
];

let browser: Browser;
let context: BrowserContext;
let page: Page;
const pages = () => (page && !page.isClosed() ? [page] : []);

interface AxeNode {
  target: string[];
  html: string;
  failureSummary?: string;
}
interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: AxeNode[];
}

/** axe's serious and critical violations on the page as it is now, one line each: impact, rule, element, summary. */
async function violations(): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  const found = (await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<{ violations: Violation[] }> } }).axe;
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  })) as Violation[];
  return found
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) =>
      v.nodes.map((n) => {
        const summary = (n.failureSummary ?? v.help).replace(/\s+/g, ' ').trim().slice(0, 240);
        return `${v.impact} ${v.id}: ${n.target.join(' ')} — ${summary} [${n.html.replace(/\s+/g, ' ').slice(0, 120)}]`;
      }),
    );
}

/** Waits for a screen's data to arrive (spinners gone, then a moment for late lists and sockets). */
async function settle(): Promise<void> {
  await page.waitForLoadState('load');
  await poll('the spinners to go', async () => (await page.locator('.chakra-spinner').count()) === 0, 15_000).catch(() => undefined);
  await page.waitForTimeout(800);
}

let me: { id: number; email: string; password: string };
let chat: { id: number; uuid: string; name: string; from: string };
let sandboxId: number;
let yellowName: string;

/** A customer's message on the demo's sandbox connection. */
async function inbound(token: string, from: string, name: string, body: string): Promise<void> {
  const sent = await api(`/whatsappsession/${sandboxId}/sandbox/inbound`, token, {
    method: 'POST',
    body: JSON.stringify({ from, name, body }),
  });
  expect(sent.status).toBe(202);
}

async function ticketOf(token: string, from: string): Promise<{ id: number; uuid: string; contactId: number }> {
  return poll(`the ticket of ${from}`, async () => {
    const { body } = await api<{ tickets: Array<{ id: number; uuid: string; contactId: number; contact: { number: string } }> }>(
      `/tickets?searchParam=${from}&showAll=true`,
      token,
    );
    return body.tickets?.find((t) => t.contact.number === from);
  });
}

/**
 * The data CI's richer runs had: queues and tags of light colours, an agent of those queues (an admin, to see every
 * screen) with a conversation open in one of them, tagged, with messages both ways; a waiting ticket in the other;
 * two schedules this month.
 */
async function seed(): Promise<void> {
  await signIn(page);
  const admin = await tokenOf(page);
  const { body: connections } = await api<Array<{ id: number; channel: string; status: string }>>('/whatsapp', admin);
  const sandbox = connections.find((c) => c.channel === 'sandbox' && c.status === 'CONNECTED');
  if (!sandbox) throw new Error('the demo has a connected sandbox connection');
  sandboxId = sandbox.id;

  // a queue's colour is unique in a company: an earlier run's queue of that colour is used again
  const queueOf = async (name: string, color: string) => {
    const made = await api<{ id: number; name: string }>('/queue', admin, { method: 'POST', body: JSON.stringify({ name, color }) });
    if (made.status === 201 || made.status === 200) return made.body;
    const { body: all } = await api<Array<{ id: number; name: string; color: string }>>('/queue', admin);
    const same = all.find((q) => q.color.toLowerCase() === color.toLowerCase());
    if (!same) throw new Error(`the queue ${name} could not be made: ${made.status} ${JSON.stringify(made.body)}`);
    return same;
  };
  const yellowQueue = await queueOf(`Amarela ${run}`, '#FFFF00');
  yellowName = yellowQueue.name;
  const yellow = yellowQueue.id;
  const white = (await queueOf(`Branca ${run}`, '#FFFFFF')).id;

  const tagOf = async (name: string, color: string) => {
    const made = await api<{ id: number }>('/tags', admin, { method: 'POST', body: JSON.stringify({ name, color, kanban: 1 }) });
    expect(made.status).toBe(201);
    return made.body.id;
  };
  const tags = [await tagOf(`Amarela ${run}`, '#FFFF00'), await tagOf(`Branca ${run}`, '#FFFFFF')];

  me = { id: 0, email: `a11y-${run}@example.com`, password: 'Senha#123' };
  const user = await api<{ id: number }>('/users', admin, {
    method: 'POST',
    body: JSON.stringify({ name: `Agente ${run}`, email: me.email, password: me.password, profile: 'admin', queueIds: [yellow, white] }),
  });
  expect(user.status).toBe(201);
  me.id = user.body.id;

  // the agent's own session from here on
  await page.evaluate(() => localStorage.clear());
  await signIn(page, me.email, me.password);
  const token = await tokenOf(page);

  chat = { id: 0, uuid: '', name: `Cliente ${run}`, from: `55119${String(Date.now()).slice(-8)}` };
  await inbound(token, chat.from, chat.name, `Olá, queria saber do meu pedido (${run})`);
  const ticket = await ticketOf(token, chat.from);
  chat.id = ticket.id;
  chat.uuid = ticket.uuid;
  const accepted = await api(`/tickets/${ticket.id}`, token, {
    method: 'PUT',
    body: JSON.stringify({ status: 'open', userId: me.id, queueId: yellow }),
  });
  expect(accepted.status).toBe(200);
  for (const tag of tags) expect((await api(`/ticket-tags/${ticket.id}/${tag}`, token, { method: 'PUT' })).status).toBeLessThan(300);
  const reply = await api(`/messages/${ticket.id}`, token, {
    method: 'POST',
    body: JSON.stringify({ body: 'Bom dia! Vou verificar agora.' }),
  });
  expect(reply.status).toBeLessThan(300);
  await inbound(token, chat.from, chat.name, 'Obrigado, fico no aguardo');

  // a waiting ticket in the white queue: the notifications' count
  const waiting = `55119${String(Date.now() + 7).slice(-8)}`;
  await inbound(token, waiting, `Aguardando ${run}`, 'Alguém pode me atender?');
  const pending = await ticketOf(token, waiting);
  expect((await api(`/tickets/${pending.id}`, token, { method: 'PUT', body: JSON.stringify({ queueId: white }) })).status).toBe(200);

  // two schedules on a day of this month (the calendar opens on it)
  const now = new Date();
  const day = new Date(now.getFullYear(), now.getMonth(), now.getDate() < 27 ? now.getDate() + 1 : now.getDate(), 23, 0);
  const at = (minutes: number) => new Date(Math.max(day.getTime(), Date.now() + 3600_000) - minutes * 60_000).toISOString();
  for (const [i, body] of ['Lembrete: sua consulta é amanhã', 'Seu pedido saiu para entrega'].entries()) {
    const made = await api('/schedules', token, {
      method: 'POST',
      body: JSON.stringify({ body: `${body} (${run})`, contactId: ticket.contactId, sendAt: at(i * 30) }),
    });
    expect(made.status).toBe(201);
  }
}

beforeAll(async () => {
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1366, height: 820 }, locale: 'pt-BR', bypassCSP: true });
  page = await context.newPage();
});

afterAll(async () => {
  await browser?.close();
});

async function theme(name: 'light' | 'dark'): Promise<void> {
  await page.evaluate((t) => localStorage.setItem('preferredTheme', t), name);
}

describe('accessibility (axe)', () => {
  it('the sign-in page has no serious violation, light and dark', () =>
    step('axe on /login', pages, async () => {
      const found: string[] = [];
      await page.goto(`${webUrl}/login`);
      for (const t of ['light', 'dark'] as const) {
        await theme(t);
        await page.goto(`${webUrl}/login`);
        await page.getByTestId('login-email').waitFor();
        found.push(...(await violations()).map((v) => `${t} /login ${v}`));
      }
      await theme('light');
      expect(found).toEqual([]);
    }));

  it(
    'the main screens have none with a real company’s data, a conversation open and its contact shown, light and dark',
    () =>
      step('axe on the main screens', pages, async () => {
        await seed();
        const found: string[] = [];
        for (const t of ['light', 'dark'] as const) {
          await theme(t);
          for (const path of SCREENS) {
            await page.goto(`${webUrl}${path}`);
            await settle();
            // what CI saw is on screen: the yellow queue's pill, the light tags' lanes, the schedules, the count
            if (path === '/tickets') await page.getByTestId('ticket-queue').filter({ hasText: yellowName }).first().waitFor();
            if (path === '/kanban')
              await page
                .getByTestId('kanban-lane-title')
                .filter({ hasText: `Branca ${run}` })
                .waitFor();
            if (path === '/schedules') await page.getByTestId('schedule-event').nth(1).waitFor();
            await page.getByTestId('notifications-count').waitFor();
            found.push(...(await violations()).map((v) => `${t} ${path} ${v}`));
          }
          // the open conversation, then with its contact drawer (tags of light colours)
          await page.goto(`${webUrl}/tickets/${chat.uuid}`);
          await page.getByTestId('message-textarea').waitFor();
          await page.getByTestId('message').nth(2).waitFor();
          await settle();
          found.push(...(await violations()).map((v) => `${t} /tickets/:uuid ${v}`));
          await page.getByTestId('chat-contact-button').click();
          await page.getByTestId('contact-drawer-tag').first().waitFor();
          // its buttons are enabled once the contact arrived (a disabled one fades in)
          await poll('the contact in the drawer', () => page.getByTestId('contact-drawer-edit').isEnabled());
          await settle();
          found.push(...(await violations()).map((v) => `${t} /tickets/:uuid (contact drawer) ${v}`));
        }
        await theme('light');
        expect(found).toEqual([]);
      }),
    // 22 screens twice, each given time for its data: longer than a usual browser test
    300_000,
  );

  it("reads a customer's new message out through the chat's polite live region", () =>
    step('live region', pages, async () => {
      await page.goto(`${webUrl}/tickets/${chat.uuid}`);
      await page.getByTestId('message-textarea').waitFor();
      const region = page.getByTestId('chat-announcer');
      expect(await region.getAttribute('aria-live')).toBe('polite');
      // the history is not read out
      expect((await region.innerText()).trim()).toBe('');
      expect(await page.getByTestId('message-textarea').getAttribute('aria-label')).toBe(`Mensagem para ${chat.name}`);
      await inbound(await tokenOf(page), chat.from, chat.name, `Chegou a nota fiscal? (${run})`);
      await poll(
        'the announcement',
        async () => (await region.textContent())?.trim() === `Nova mensagem de ${chat.name}: Chegou a nota fiscal? (${run})`,
      );
    }));

  it('the main dialogs give the focus back to what opened them', () =>
    step('focus return', pages, async () => {
      /** Opens a dialog from `opener` by the keyboard (or `open`), closes it with Escape, and tells where the focus went. */
      const focusReturns = async (opener: Locator, dialogTestId: string, open?: () => Promise<void>) => {
        await opener.focus();
        if (open) await open();
        else await page.keyboard.press('Enter');
        const dialog = page.getByTestId(dialogTestId);
        await dialog.waitFor();
        await poll(`the focus in ${dialogTestId}`, () => dialog.evaluate((d) => d.contains(document.activeElement)));
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
        await poll(`the focus back on what opened ${dialogTestId}`, () => opener.evaluate((el) => el === document.activeElement), 5_000);
      };

      await page.goto(`${webUrl}/tickets`);
      await focusReturns(page.getByTestId('new-ticket'), 'new-ticket-modal');

      await page.goto(`${webUrl}/tickets/${chat.uuid}`);
      await page.getByTestId('message-textarea').waitFor();
      const options = page.getByTestId('ticket-options');
      await focusReturns(options, 'transfer-modal', async () => {
        await page.keyboard.press('Enter');
        await page.getByTestId('ticket-option-transfer').click();
      });
      await focusReturns(options, 'confirm-dialog', async () => {
        await page.keyboard.press('Enter');
        await page.getByTestId('ticket-option-delete').click();
      });
      await page.getByTestId('chat-contact-button').click();
      await poll('the contact in the drawer', () => page.getByTestId('contact-drawer-edit').isEnabled());
      await focusReturns(page.getByTestId('contact-drawer-edit'), 'contact-dialog');

      await page.goto(`${webUrl}/quick-messages`);
      await focusReturns(page.getByTestId('quick-message-add'), 'quick-message-dialog');
    }));
});
