import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { api, launchChromium, poll, productUrls, signedInPage, step, tokenOf } from './browser';

/**
 * Scheduled messages in a real browser (issue 13): from a contact's row, the schedule dialog opens on
 * /schedules for that contact; the saved schedule shows on the calendar as waiting, is sent at its time by
 * the server's delayed job (to the demo's sandbox phone), and turns "sent" on the calendar without a reload;
 * opened again, its title says so and it can no longer be saved.
 */
const { webUrl } = productUrls();
const run = Date.now().toString(36);
const digits = String(Date.now()).slice(-8);

let browser: Browser;
let page: Page;
const pages = () => (page && !page.isClosed() ? [page] : []);

const token = () => tokenOf(page);
/** A datetime-local value on the browser's clock. */
const localInput = (d: Date) => new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

beforeAll(async () => {
  browser = await launchChromium();
  page = await signedInPage(browser);
});

afterAll(async () => {
  await browser?.close();
});

describe('scheduled messages in the console', () => {
  const name = `Agendado ${run}`;
  let scheduleId = 0;

  it('schedules a message from a contact: the dialog opens for it, the schedule waits on the calendar', () =>
    step('create schedule', pages, async () => {
      const created = await api<{ id: number }>('/contacts', await token(), {
        method: 'POST',
        body: JSON.stringify({ name, number: `55119${digits}` }),
      });
      expect(created.status).toBeLessThan(300);
      await page.goto(`${webUrl}/contacts`);
      await page.getByTestId('contacts-search').fill(run);
      const row = page.getByTestId('contact-row').filter({ hasText: name });
      await row.getByTestId('contact-schedule').click();
      await page.waitForURL(new RegExp(`/schedules\\?contactId=${created.body.id}`));
      const dialog = page.getByTestId('schedule-dialog');
      await dialog.waitFor();
      // the contact comes chosen (shown in the contact field)
      await poll('the chosen contact', async () => (await dialog.getByTestId('schedule-contact').inputValue()).includes(name));
      // the spec's rule: at least 5 characters
      await dialog.getByTestId('schedule-body').fill('oi');
      await dialog.getByTestId('schedule-save').click();
      await dialog.getByText('Mensagem muito curta').waitFor();
      await dialog.getByTestId('schedule-body').fill(`Lembrete ${run}: sua consulta é amanhã`);
      await dialog.getByTestId('schedule-send-at').fill(localInput(new Date(Date.now() + 2 * 3600_000)));
      await dialog.getByTestId('schedule-save').click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByTestId('schedules-search').fill(run);
      const event = page.getByTestId('schedule-event').filter({ hasText: name });
      await event.waitFor();
      expect(await event.getAttribute('data-status')).toBe('PENDENTE');
      scheduleId = Number(await event.getAttribute('data-schedule-id'));
      expect(scheduleId).toBeGreaterThan(0);
    }));

  it('is sent at its time and shows as sent without a reload; opened, its title says so and save is gone', () =>
    step('schedule sent', pages, async () => {
      // due in 2 s (the form takes minutes): the server's delayed job sends it
      const moved = await api(`/schedules/${scheduleId}`, await token(), {
        method: 'PUT',
        body: JSON.stringify({ sendAt: new Date(Date.now() + 2000).toISOString() }),
      });
      expect(moved.status).toBe(200);
      await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
      const event = page.locator(`[data-testid="schedule-event"][data-schedule-id="${scheduleId}"]`);
      await event.and(page.locator('[data-status="ENVIADA"]')).waitFor({ timeout: 30_000 });
      expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
      await event.getByTestId('schedule-event-edit').click();
      const dialog = page.getByTestId('schedule-dialog');
      await dialog.waitFor();
      expect(await dialog.getByTestId('schedule-dialog-title').innerText()).toMatch(/Enviad/);
      expect(await dialog.getByTestId('schedule-save').count()).toBe(0);
      // the message is in the contact's conversation
      const sent = await api<{ ticketId: number }>(`/schedules/${scheduleId}`, await token());
      const messages = await api<{ messages: Array<{ body: string; fromMe: boolean }> }>(`/messages/${sent.body.ticketId}`, await token());
      expect(messages.body.messages.some((m) => m.fromMe && m.body === `Lembrete ${run}: sua consulta é amanhã`)).toBe(true);
    }));
});
