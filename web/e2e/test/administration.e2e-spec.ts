import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { PlatformSessionsPage } from '@wa/contracts';
import type { Browser, Page } from 'playwright-core';
import { api, launchChromium, poll, productUrls, signedInPage, signIn, step, tokenOf } from './browser';

/**
 * Running the platform in a real browser (issue 16): the demo's super user makes a plan without kanban on the
 * settings tab Planos and a company on it on the tab Empresas; its admin signs in, sees no provider tabs and is
 * refused the kanban board by the server; the super user's tab Sessões shows the WhatsApp sessions' replicas and
 * connections as the API gives them (issue 43). What is made here is deleted at the end (the database is shared).
 */
const { webUrl } = productUrls();
const run = Date.now().toString(36);
const planName = `Sem kanban ${run}`;
const companyName = `Loja ${run}`;
const adminEmail = `loja-${run}@example.com`;
const NO_PERMISSION = 'Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.';

const announcementTitle = `Manutenção ${run}`;
const kanbanTag = `Proposta ${run}`;
const fileListName = `Catálogo ${run}`;

let browser: Browser;
let page: Page;
let other: Page | undefined;
let third: Page | undefined;
let colleague: Page | undefined;
const pages = () => [page, other, third, colleague].filter((p): p is Page => !!p && !p.isClosed());
let token = '';

beforeAll(async () => {
  browser = await launchChromium();
  page = await signedInPage(browser);
  token = await tokenOf(page);
});

afterAll(async () => {
  if (token) {
    const lists =
      (await api<{ files: Array<{ id: number }> }>(`/files?searchParam=${encodeURIComponent(fileListName)}`, token).catch(() => null))?.body
        ?.files ?? [];
    for (const l of lists) await api(`/files/${l.id}`, token, { method: 'DELETE' }).catch(() => undefined);
    const announcements =
      (
        await api<{ records: Array<{ id: number; title: string }> }>(
          `/announcements?searchParam=${encodeURIComponent(announcementTitle)}`,
          token,
        ).catch(() => null)
      )?.body?.records ?? [];
    for (const a of announcements) await api(`/announcements/${a.id}`, token, { method: 'DELETE' }).catch(() => undefined);
    const tags =
      (
        await api<{ tags: Array<{ id: number; name: string }> }>(`/tags?searchParam=${encodeURIComponent(kanbanTag)}`, token).catch(
          () => null,
        )
      )?.body?.tags ?? [];
    for (const t of tags) await api(`/tags/${t.id}`, token, { method: 'DELETE' }).catch(() => undefined);
    const users =
      (
        await api<{ users: Array<{ id: number; email: string }> }>(
          `/users?searchParam=${encodeURIComponent(`kanban-${run}`)}`,
          token,
        ).catch(() => null)
      )?.body?.users ?? [];
    for (const u of users) await api(`/users/${u.id}`, token, { method: 'DELETE' }).catch(() => undefined);
    const companies =
      (
        await api<{ companies: Array<{ id: number; name: string }> }>(
          `/companies?searchParam=${encodeURIComponent(companyName)}`,
          token,
        ).catch(() => null)
      )?.body?.companies ?? [];
    for (const c of companies) await api(`/companies/${c.id}`, token, { method: 'DELETE' }).catch(() => undefined);
    const plans = (await api<Array<{ id: number; name: string }>>('/plans/all', token).catch(() => null))?.body ?? [];
    for (const p of plans.filter((x) => x.name === planName)) {
      // billing asks auth whether a company is still on it: the company's deletion reaches auth at once
      await poll('the plan deleted', async () => (await api(`/plans/${p.id}`, token, { method: 'DELETE' })).status !== 409).catch(
        () => undefined,
      );
    }
  }
  await browser?.close();
});

describe('the provider’s settings tabs', () => {
  it('a super user makes a plan without kanban and a company on it; its admin signs in without the provider’s tabs and is refused the kanban', () =>
    step('plan and company', pages, async () => {
      await page.goto(`${webUrl}/settings`);
      await page.getByRole('tab', { name: 'Planos' }).click();
      await page.getByRole('button', { name: 'Adicionar plano' }).click();
      const planDialog = page.getByTestId('plan-dialog');
      await planDialog.getByTestId('plan-name').fill(planName);
      await planDialog.getByTestId('plan-useKanban').click();
      await planDialog.getByTestId('plan-save').click();
      await planDialog.waitFor({ state: 'detached' });
      await page.getByRole('cell', { name: planName, exact: true }).waitFor();
      const plan = (await api<Array<{ id: number; name: string; useKanban: boolean }>>('/plans/all', token)).body.find(
        (p) => p.name === planName,
      );
      expect(plan).toMatchObject({ useKanban: false });

      await page.getByRole('tab', { name: 'Empresas' }).click();
      await page.getByRole('button', { name: 'Adicionar empresa' }).click();
      const companyDialog = page.getByTestId('company-dialog');
      await companyDialog.getByTestId('company-name').fill(companyName);
      await companyDialog.getByTestId('company-email').fill(adminEmail);
      // the plans' list of the select comes from billing; auth's copy (what the company is checked against) follows it
      await poll(
        'the plan offered in the company dialog',
        async () => (await companyDialog.getByTestId('company-planId').locator('option', { hasText: planName }).count()) > 0,
      );
      await companyDialog.getByTestId('company-planId').selectOption({ label: planName });
      await companyDialog.getByTestId('company-password').fill('Senha123');
      await poll('the company saved', async () => {
        if (await companyDialog.isVisible()) await companyDialog.getByTestId('company-save').click();
        await page.waitForTimeout(300);
        return !(await companyDialog.isVisible());
      });
      await page.getByRole('cell', { name: companyName, exact: true }).waitFor();

      // the company's admin, in a browser of their own
      const context = await browser.newContext({ viewport: { width: 1366, height: 820 }, locale: 'pt-BR' });
      other = await context.newPage();
      await signIn(other, adminEmail, 'Senha123');
      await other.goto(`${webUrl}/settings`);
      await other.getByRole('tab', { name: 'Opções' }).waitFor();
      expect(await other.getByRole('tab', { name: 'Planos' }).count()).toBe(0);
      expect(await other.getByRole('tab', { name: 'Empresas' }).count()).toBe(0);
      expect(await other.getByRole('tab', { name: 'Sessões' }).count()).toBe(0);
      expect((await api('/platform/sessions', await tokenOf(other))).status).toBe(403);
      expect(await other.getByRole('link', { name: 'Kanban' }).count()).toBe(0);
      const refused = await api<{ message: string }>('/tags/kanban', await tokenOf(other));
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe(NO_PERMISSION);
      // and the board itself says so, then goes home
      await other.goto(`${webUrl}/kanban`);
      await other.getByText(NO_PERMISSION).first().waitFor();
      await other.waitForURL((url) => url.pathname === '/' || url.pathname === '/tickets');
    }));

  it('the super user’s tab Sessões shows every replica of the WhatsApp sessions and the connections, as GET /platform/sessions gives them', () =>
    step('sessions tab', pages, async () => {
      // nothing is drained here: the product is shared with the other browser tests
      const view = (await api<PlatformSessionsPage>('/platform/sessions', token)).body;
      expect(view.replicas.length).toBeGreaterThan(0);
      await page.goto(`${webUrl}/settings`);
      await page.getByRole('tab', { name: 'Sessões' }).click();
      for (const r of view.replicas) {
        const card = page.getByTestId(`replica-${r.name}`);
        await card.waitFor();
        expect(await card.getByTestId(r.draining ? 'replica-undrain' : 'replica-drain').count()).toBe(1);
      }
      for (const c of view.connections.slice(0, 5)) {
        const row = page.getByTestId(`session-row-${c.id}`);
        await row.waitFor();
        expect(await row.getByTestId('session-name-cell').textContent()).toBe(c.name);
      }
      await page.getByTestId('sessions-live').getByText('Ao vivo: atualizado a cada 5 s').waitFor();
    }));

  it('an announcement posted by the super user appears, live, in the top bar popover of another company’s admin', () =>
    step('announcement', pages, async () => {
      if (!other) throw new Error('the previous test signs the company’s admin in');
      const before = Number((await other.getByTestId('announcements-popover-button').getAttribute('data-count')) ?? '0');
      await page.goto(`${webUrl}/announcements`);
      await page.getByTestId('announcements-add').click();
      const dialog = page.getByTestId('announcement-dialog');
      await dialog.getByTestId('announcement-title').fill(announcementTitle);
      await dialog.getByTestId('announcement-text').fill('O sistema fica fora do ar no sábado às 22h.');
      await dialog.getByTestId('announcement-priority').selectOption('1');
      await dialog.getByTestId('announcement-save').click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByTestId('announcement-row').filter({ hasText: announcementTitle }).waitFor();

      // no reload on the other side: the count rises and the popover lists it, in the high priority's colour
      await poll(
        'the count raised',
        async () => Number((await other!.getByTestId('announcements-popover-button').getAttribute('data-count')) ?? '0') > before,
      );
      await other.getByTestId('announcements-popover-button').click();
      const item = other.getByTestId('announcements-popover-item').filter({ hasText: announcementTitle });
      await item.waitFor();
      expect(await item.getAttribute('data-priority')).toBe('1');
      expect(await item.textContent()).toContain('O sistema fica fora do ar no sábado às 22h.');
      await other.keyboard.press('Escape');
      // an admin is refused the announcements page
      await other.goto(`${webUrl}/announcements`);
      await other.getByText(NO_PERMISSION).first().waitFor();
    }));
});

describe('internal chat', () => {
  it('two users of the company chat: a new chat with a colleague, the message reaches them live with an unread count, the answer comes back live', () =>
    step('internal chat', pages, async () => {
      if (!other) throw new Error('the first test signs the company’s admin in');
      const adminToken = await tokenOf(other);
      const mate = { name: `Colega ${run}`, email: `colega-${run}@example.com`, password: 'Senha123', profile: 'user' };
      expect((await api('/users', adminToken, { method: 'POST', body: JSON.stringify(mate) })).status).toBe(201);
      const context = await browser.newContext({ viewport: { width: 1366, height: 820 }, locale: 'pt-BR' });
      colleague = await context.newPage();
      await signIn(colleague, mate.email, mate.password);

      await other.goto(`${webUrl}/chats`);
      await other.getByTestId('chat-new').click();
      const dialog = other.getByTestId('chat-dialog');
      await dialog.getByTestId('chat-dialog-title').fill('Plantão de sábado');
      const pick = dialog.getByTestId('chat-dialog-user').filter({ hasText: mate.name });
      await pick.locator('[data-part=control]').click();
      await poll('the colleague picked', async () => (await pick.getAttribute('data-state')) === 'checked');
      await dialog.getByTestId('chat-dialog-save').click();
      await dialog.waitFor({ state: 'detached' });
      await other.getByTestId('chat-pane-title').filter({ hasText: 'Plantão de sábado' }).waitFor();
      await other.getByTestId('chat-message-input').fill('Quem cobre o sábado?');
      await other.getByTestId('chat-message-input').press('Enter');
      await other.getByTestId('chat-message').filter({ hasText: 'Quem cobre o sábado?' }).waitFor();

      // the colleague, without a reload: the top bar counts it, the popover opens the chat
      await poll(
        'the unread count',
        async () => Number((await colleague!.getByTestId('chats-popover-button').getAttribute('data-count')) ?? '0') === 1,
      );
      await colleague.getByTestId('chats-popover-button').click();
      await colleague.getByTestId('chats-popover-item').filter({ hasText: 'Plantão de sábado' }).click();
      await colleague.waitForURL((url) => url.pathname.startsWith('/chats/'));
      await colleague.getByTestId('chat-message').filter({ hasText: 'Quem cobre o sábado?' }).waitFor();
      // reading clears it
      await poll(
        'the count cleared',
        async () => Number((await colleague!.getByTestId('chats-popover-button').getAttribute('data-count')) ?? '0') === 0,
      );
      await colleague.getByTestId('chat-message-input').fill('Eu cubro.');
      await colleague.getByTestId('chat-send').click();
      await other.getByTestId('chat-message').filter({ hasText: 'Eu cubro.' }).waitFor();
      // only the owner edits or deletes
      expect(await colleague.getByTestId('chat-edit').count()).toBe(0);
      expect(await other.getByTestId('chat-edit').count()).toBeGreaterThan(0);
    }));
});

describe('file lists', () => {
  it('an admin makes a list with two options, each with its file, and the server keeps both files', () =>
    step('file lists', pages, async () => {
      await page.goto(`${webUrl}/files`);
      await page.getByTestId('files-add').click();
      const dialog = page.getByTestId('file-list-dialog');
      await dialog.getByTestId('file-list-name').fill(fileListName);
      await dialog.getByTestId('file-list-message').fill('Segue o nosso catálogo');
      const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
      const pdf = Buffer.from(
        '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
      );
      for (const [n, file] of [
        ['Capa', { name: 'capa.png', mimeType: 'image/png', buffer: png }],
        ['Tabela', { name: 'tabela.pdf', mimeType: 'application/pdf', buffer: pdf }],
      ] as const) {
        await dialog.getByTestId('file-option-add').click();
        const option = dialog.getByTestId('file-option').last();
        await option.getByTestId('file-option-name').fill(n);
        await option.getByTestId('file-option-file').setInputFiles(file);
      }
      await dialog.getByTestId('file-list-save').click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByTestId('file-list-row').filter({ hasText: fileListName }).waitFor();
      // the server has the list, each option with its file, checked by its bytes
      const saved = (
        await api<{
          files: Array<{ id: number; name: string; options: Array<{ name: string; mediaType: string | null; file: string | null }> }>;
        }>(`/files?searchParam=${encodeURIComponent(fileListName)}`, token)
      ).body.files[0];
      expect(saved?.options.map((o) => [o.name, o.mediaType, o.file !== null])).toEqual([
        ['Capa', 'image/png', true],
        ['Tabela', 'application/pdf', true],
      ]);
    }));
});

describe('the kanban board', () => {
  it('dragging a card to a tag’s lane tags the ticket, and a second open board moves the card without a reload', () =>
    step('kanban drag', pages, async () => {
      // a kanban lane, a customer's ticket, and a supervisor watching the board in a browser of their own
      const tag = await api<{ id: number }>('/tags', token, {
        method: 'POST',
        body: JSON.stringify({ name: kanbanTag, color: '#2e7d32', kanban: 1 }),
      });
      expect(tag.status).toBe(201);
      const { body: connections } = await api<Array<{ id: number; channel: string; status: string }>>('/whatsapp', token);
      const sandbox = connections.find((c) => c.channel === 'sandbox' && c.status === 'CONNECTED');
      if (!sandbox) throw new Error('the demo has a connected sandbox connection');
      const customer = { from: `55218${String(Date.now()).slice(-8)}`, name: `Kanban ${run}`, body: `Quero uma proposta (${run})` };
      expect(
        (await api(`/whatsappsession/${sandbox.id}/sandbox/inbound`, token, { method: 'POST', body: JSON.stringify(customer) })).status,
      ).toBe(202);
      const ticket = await poll(
        'the customer’s ticket',
        async () =>
          (await api<{ tickets: Array<{ id: number }> }>(`/tickets?showAll=true&searchParam=${customer.from}`, token)).body.tickets?.[0],
      );
      const supervisor = { name: `Supervisora ${run}`, email: `kanban-${run}@example.com`, password: 'Senha123', profile: 'supervisor' };
      expect((await api('/users', token, { method: 'POST', body: JSON.stringify(supervisor) })).status).toBe(201);
      const context = await browser.newContext({ viewport: { width: 1366, height: 820 }, locale: 'pt-BR' });
      third = await context.newPage();
      await signIn(third, supervisor.email, supervisor.password);

      for (const p of [page, third]) {
        await p.goto(`${webUrl}/kanban`);
        await p.getByTestId('kanban-lane-open').getByTestId(`kanban-card-${ticket.id}`).waitFor();
        await p.getByTestId(`kanban-lane-${tag.body.id}`).waitFor();
      }
      // a real drag: press, move past the sensor's 6 px, move over the lane, release
      const card = await page.getByTestId(`kanban-card-${ticket.id}`).boundingBox();
      const lane = await page.getByTestId(`kanban-lane-${tag.body.id}`).boundingBox();
      if (!card || !lane) throw new Error('the card and the lane are on screen');
      await page.mouse.move(card.x + card.width / 2, card.y + card.height / 2);
      await page.mouse.down();
      await page.mouse.move(card.x + card.width / 2 + 20, card.y + card.height / 2, { steps: 5 });
      await page.mouse.move(lane.x + lane.width / 2, lane.y + 80, { steps: 15 });
      await page.mouse.up();
      await page.getByTestId(`kanban-lane-${tag.body.id}`).getByTestId(`kanban-card-${ticket.id}`).waitFor();
      // the server has the tag, and the other board moved the card by itself
      await poll('the ticket tagged', async () =>
        (await api<{ tags: Array<{ id: number }> }>(`/tickets/${ticket.id}`, token)).body.tags?.some((t) => t.id === tag.body.id),
      );
      await third.getByTestId(`kanban-lane-${tag.body.id}`).getByTestId(`kanban-card-${ticket.id}`).waitFor();
      expect(await third.getByTestId('kanban-lane-open').getByTestId(`kanban-card-${ticket.id}`).count()).toBe(0);
    }));
});
