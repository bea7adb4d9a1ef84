import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, poll, productUrls, step } from './browser';

/**
 * Around the conversation in a real browser (issue 13): the dashboard's counters and a chart, an agent added
 * on the users page, a new customer's message in the top bar's notifications (with its chime), the to-do
 * list, a company signed up from /signup landing in its own empty console, and its admin's password reset
 * with the code read from the local mail catcher.
 */
const { webUrl, apiUrl, mailUrl } = productUrls();
const run = Date.now().toString(36);
const digits = String(Date.now()).slice(-8);

let browser: Browser;
let admin: BrowserContext;
let page: Page;
const open: Page[] = [];
const pages = () => open.filter((p) => !p.isClosed());

async function api<T>(path: string, token: string | null, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  const res = await fetch(`${apiUrl}${path}`, {
    ...init,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json', ...(init.headers ?? {}) },
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

const tokenOf = (p: Page) => p.evaluate(() => localStorage.getItem('token') ?? '');

async function signIn(p: Page, email: string, password: string): Promise<void> {
  await p.goto(`${webUrl}/login`);
  await p.getByTestId('login-email').fill(email);
  await p.getByTestId('login-password').fill(password);
  await p.getByTestId('login-submit').click();
  await p.waitForURL(`${webUrl}/tickets`);
}

async function sandboxConnection(token: string): Promise<number> {
  const { body } = await api<Array<{ id: number; channel: string; status: string }>>('/whatsapp', token);
  const sandbox = body.find((c) => c.channel === 'sandbox' && c.status === 'CONNECTED');
  if (!sandbox) throw new Error('the demo has no connected sandbox connection');
  return sandbox.id;
}

beforeAll(async () => {
  browser = await launchChromium();
  admin = await browser.newContext({ viewport: { width: 1366, height: 820 }, locale: 'pt-BR' });
  page = await admin.newPage();
  open.push(page);
  await signIn(page, 'admin@admin.com', '123456');
});

afterAll(async () => {
  await browser?.close();
});

describe('the console around the conversation', () => {
  it('the dashboard shows the counters of the server and draws the tickets per day', () =>
    step('dashboard', pages, async () => {
      const token = await tokenOf(page);
      const connectionId = await sandboxConnection(token);
      const injected = await api(`/whatsappsession/${connectionId}/sandbox/inbound`, token, {
        method: 'POST',
        body: JSON.stringify({ from: `55119${digits}`, name: `Painel ${run}`, body: 'quero ser atendido' }),
      });
      expect(injected.status).toBe(202);
      await poll(
        'the new ticket',
        async () => (await api<{ tickets: unknown[] }>(`/tickets?showAll=true&searchParam=${digits}`, token)).body.tickets.length > 0,
      );
      await page.goto(`${webUrl}/`);
      await page.getByTestId('dashboard-page').waitFor();
      const counter = (key: string) => page.getByTestId(`dashboard-counter-${key}`);
      await counter('supportPending').waitFor();
      const { body: server } = await api<{ counters: Record<string, number> }>('/dashboard?days=1', token);
      for (const key of ['supportPending', 'supportHappening']) {
        await poll(
          `${key} as the server counts it`,
          async () => Number(await counter(key).getAttribute('data-value')) === server.counters[key],
        );
      }
      expect(server.counters.supportPending).toBeGreaterThan(0);
      // the providers' cards are for super users only (the demo's admin is one)
      const me = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null') as { super?: boolean } | null);
      const isSuper = me?.super ?? (await api<{ super: boolean }>('/auth/me', token)).body.super;
      await poll(
        'the providers cards as the profile says',
        async () => (await page.getByTestId('dashboard-card-totalCompanies').count()) === (isSuper ? 1 : 0),
      );
      const days = page.getByTestId('dashboard-chart-days');
      await poll('the tickets-per-day chart', async () => Number(await days.getAttribute('data-total')) > 0);
      expect(await days.locator('svg').count()).toBeGreaterThan(0);
      // an empty filter asks for one
      await page.getByTestId('dashboard-filter-type').selectOption('period');
      await page.getByTestId('dashboard-period').selectOption('');
      await page.getByText('Parametrize o filtro').first().waitFor();
    }));

  it('adds an agent on the users page, who can then sign in', () =>
    step('users', pages, async () => {
      const email = `agente.${run}@empresa.test`;
      await page.goto(`${webUrl}/users`);
      await page.getByTestId('users-page').waitFor();
      await page.getByTestId('users-add').click();
      const dialog = page.getByTestId('user-dialog');
      await dialog.getByTestId('user-name').fill('A');
      await dialog.getByTestId('user-email').fill(email);
      await dialog.getByTestId('user-password').fill('agente123');
      await dialog.getByTestId('user-save').click();
      await dialog.getByText('Too Short!').waitFor();
      await dialog.getByTestId('user-name').fill(`Agente ${run}`);
      await dialog.getByTestId('user-profile').selectOption('user');
      await dialog.getByTestId('user-save').click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByTestId('users-search').fill(run);
      await page.getByTestId('user-row').filter({ hasText: email }).waitFor();
      const login = await api<{ user: { profile: string } }>('/auth/login', null, {
        method: 'POST',
        body: JSON.stringify({ email, password: 'agente123' }),
      });
      expect(login.status).toBe(200);
      expect(login.body.user.profile).toBe('user');
    }));

  it("counts a new customer's ticket in the notifications and chimes at the slider's volume", () =>
    step('notifications', pages, async () => {
      await page.goto(`${webUrl}/tickets`);
      const button = page.getByTestId('notifications-button');
      await button.waitFor();
      const before = Number(await button.getAttribute('data-count'));
      await page.evaluate(() => {
        const w = window as unknown as { __chimes: number[] };
        w.__chimes = [];
        window.addEventListener('conversa:chime', (e) => w.__chimes.push((e as CustomEvent<{ gain: number }>).detail.gain));
      });
      const token = await tokenOf(page);
      const connectionId = await sandboxConnection(token);
      await api(`/whatsappsession/${connectionId}/sandbox/inbound`, token, {
        method: 'POST',
        body: JSON.stringify({ from: `55118${digits}`, name: `Aviso ${run}`, body: 'olá, alguém aí?' }),
      });
      await poll('the count to grow', async () => Number(await button.getAttribute('data-count')) > before);
      await poll('the chime', async () => (await page.evaluate(() => (window as unknown as { __chimes: number[] }).__chimes.length)) > 0);
      await button.click();
      await page
        .getByTestId('notification-item')
        .filter({ hasText: `Aviso ${run}` })
        .waitFor();
    }));

  it('keeps a to-do list in the browser: add, ignore blank, edit, delete', () =>
    step('todo', pages, async () => {
      await page.goto(`${webUrl}/todolist`);
      await page.getByTestId('todo-page').waitFor();
      const items = page.getByTestId('todo-item');
      const start = await items.count();
      await page.getByTestId('todo-input').fill('   ');
      expect(await page.getByTestId('todo-add').isDisabled()).toBe(true);
      await page.getByTestId('todo-input').press('Enter');
      expect(await items.count()).toBe(start);
      await page.getByTestId('todo-input').fill(`Ligar para o cliente ${run}`);
      await page.getByTestId('todo-add').click();
      const mine = items.filter({ hasText: run });
      await mine.waitFor();
      await mine.getByTestId('todo-edit').click();
      await page.getByTestId('todo-input').fill(`Ligar para o cliente ${run} às 15h`);
      await page.getByTestId('todo-add').click();
      await items.filter({ hasText: 'às 15h' }).waitFor();
      await page.reload();
      await items.filter({ hasText: 'às 15h' }).waitFor();
      await items.filter({ hasText: run }).getByTestId('todo-delete').click();
      await items.filter({ hasText: run }).waitFor({ state: 'detached' });
    }));

  const company = { name: `Loja ${run}`, email: `dona.${run}@loja.test`, password: 'segredo1' };

  it('signs a new company up and lands in its own empty console', () =>
    step('signup', pages, async () => {
      const visitor = await (await browser.newContext({ viewport: { width: 1366, height: 820 }, locale: 'pt-BR' })).newPage();
      open.push(visitor);
      await visitor.goto(`${webUrl}/login`);
      await visitor.getByTestId('login-signup-link').click();
      await visitor.getByTestId('signup-page').waitFor();
      const { body: plans } = await api<Array<{ id: number; name: string }>>('/plans/list', null);
      const basic = plans.find((p) => p.name === 'Plano Básico') ?? plans[0];
      await visitor.locator(`[data-testid="signup-plan"] option[value="${basic.id}"]`).waitFor({ state: 'attached' });
      await visitor.getByTestId('signup-name').fill(company.name);
      await visitor.getByTestId('signup-email').fill(company.email);
      await visitor.getByTestId('signup-phone').fill('11 98888-7777');
      await visitor.getByTestId('signup-password').fill(company.password);
      await visitor.getByTestId('signup-plan').selectOption(String(basic.id));
      await visitor.getByTestId('signup-submit').click();
      await visitor.getByText('Usuário criado com sucesso! Faça seu login').first().waitFor();
      await visitor.waitForURL(`${webUrl}/login`);
      await signIn(visitor, company.email, company.password);
      const token = await tokenOf(visitor);
      // its own and empty: no tickets, no connection, no contacts; its default queue
      expect((await api<{ tickets: unknown[] }>('/tickets?showAll=true', token)).body.tickets).toEqual([]);
      expect((await api<unknown[]>('/whatsapp', token)).body).toEqual([]);
      expect((await api<{ contacts: unknown[] }>('/contacts', token)).body.contacts).toEqual([]);
      await poll('its default queue', async () =>
        (await api<Array<{ name: string }>>('/queue', token)).body.some((q) => q.name === 'Atendimento'),
      );
      await visitor.goto(`${webUrl}/`);
      await visitor.getByTestId('dashboard-page').waitFor();
      await poll(
        'zero pending',
        async () => (await visitor.getByTestId('dashboard-counter-supportPending').getAttribute('data-value')) === '0',
      );
      await visitor.close();
    }));

  it("resets the new admin's password with the code from the mail", () =>
    step('password reset', pages, async () => {
      const visitor = await (await browser.newContext({ viewport: { width: 1366, height: 820 }, locale: 'pt-BR' })).newPage();
      open.push(visitor);
      await visitor.goto(`${webUrl}/login`);
      await visitor.getByTestId('login-forgot-link').click();
      await visitor.getByTestId('forgetpsw-page').waitFor();
      await visitor.getByTestId('forgetpsw-email').fill(company.email);
      await visitor.getByTestId('forgetpsw-send').click();
      await visitor.getByText('Email enviado com sucesso!').first().waitFor();
      const code = await poll('the code in the local inbox', async () => {
        const mails = (await (await fetch(`${mailUrl}/messages.json`)).json()) as Array<{ to: string; text: string }>;
        return /(\d{8})/.exec(mails.find((m) => m.to === company.email)?.text ?? '')?.[1];
      });
      await visitor.getByTestId('forgetpsw-code').fill(code);
      await visitor.getByTestId('forgetpsw-password').fill('fraca');
      await visitor.getByTestId('forgetpsw-confirm').fill('fraca');
      await visitor.getByTestId('forgetpsw-reset').click();
      await visitor
        .getByText('Sua senha precisa ter no mínimo 8 caracteres, sendo uma letra maiúscula, uma minúscula e um número.')
        .first()
        .waitFor();
      await visitor.getByTestId('forgetpsw-password').fill('NovaSenha123');
      await visitor.getByTestId('forgetpsw-confirm').fill('NovaSenha12');
      await visitor.getByTestId('forgetpsw-reset').click();
      await visitor.getByText('As senhas não correspondem').first().waitFor();
      await visitor.getByTestId('forgetpsw-confirm').fill('NovaSenha123');
      await visitor.getByTestId('forgetpsw-reset').click();
      await visitor.getByText('Senha redefinida com sucesso.').first().waitFor();
      await visitor.waitForURL(`${webUrl}/login`);
      await signIn(visitor, company.email, 'NovaSenha123');
      expect(
        (await api('/auth/login', null, { method: 'POST', body: JSON.stringify({ email: company.email, password: company.password }) }))
          .status,
      ).toBe(401);
      await visitor.close();
    }));
});
