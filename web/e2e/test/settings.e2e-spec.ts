import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { api, launchChromium, poll, productUrls, signedInPage, step, tokenOf } from './browser';

/**
 * The settings page and working hours in a real browser: the demo's admin turns scheduleType to company on
 * /settings, the Horarios tab appears and the company's hours are saved (PUT /companies/{id}/schedules); then
 * scheduleType queue gives the queue dialog its schedules tab, whose hours are kept in the dialog and stored
 * only when the queue is saved. Tests share the database: scheduleType goes back to disabled, the company's
 * hours back to what they were, and the queue made here is deleted.
 */
const { webUrl } = productUrls();
const run = Date.now().toString(36);

type Setting = { key: string; value: string };
type Day = { weekday: string; weekdayEn: string; startTime: string; endTime: string };

let browser: Browser;
let page: Page;
const pages = () => (page && !page.isClosed() ? [page] : []);

let token = '';
let companyId = 0;
let companyHoursBefore: Day[] | null = null;
let queueId = 0;

const scheduleTypeOnServer = async (): Promise<string | undefined> =>
  (await api<Setting[]>('/settings', token)).body.find((s) => s.key === 'scheduleType')?.value;

/** Picks a scheduleType on the Opcoes tab and waits until the server has it. */
async function chooseScheduleType(value: 'disabled' | 'queue' | 'company'): Promise<void> {
  // the selectors are on the Opcoes tab (the page may be showing Horarios)
  await page.getByRole('tab', { name: 'Opções' }).click();
  await page.getByLabel('Gerenciamento de expediente', { exact: true }).selectOption(value);
  await poll(`scheduleType ${value} on the server`, async () => (await scheduleTypeOnServer()) === value);
}

beforeAll(async () => {
  browser = await launchChromium();
  page = await signedInPage(browser);
  token = await tokenOf(page);
  companyId = (await api<{ companyId: number }>('/auth/me', token)).body.companyId;
  companyHoursBefore = (await api<{ schedules?: Day[] }>(`/companies/${companyId}`, token)).body.schedules ?? [];
});

afterAll(async () => {
  // whatever happened above, the shared demo company goes back as it was
  if (token) {
    await api('/settings/scheduleType', token, { method: 'PUT', body: JSON.stringify({ value: 'disabled' }) }).catch(() => undefined);
    if (companyId && companyHoursBefore) {
      await api(`/companies/${companyId}/schedules`, token, {
        method: 'PUT',
        body: JSON.stringify({ schedules: companyHoursBefore }),
      }).catch(() => undefined);
    }
    if (queueId) await api(`/queue/${queueId}`, token, { method: 'DELETE' }).catch(() => undefined);
  }
  await browser?.close();
});

describe('settings and working hours in the console', () => {
  it('scheduleType company brings the Horarios tab, where the company hours are saved', () =>
    step('company hours', pages, async () => {
      await page.goto(`${webUrl}/settings`);
      await page.getByTestId('settings-page').waitFor();
      // start from disabled whatever an earlier run left
      if ((await scheduleTypeOnServer()) !== 'disabled') await chooseScheduleType('disabled');
      await expect(page.getByRole('tab', { name: 'Horários' }).count()).resolves.toBe(0);

      await chooseScheduleType('company');
      await page.getByText('Operação atualizada com sucesso.').first().waitFor();
      await page.getByRole('tab', { name: 'Horários' }).click();
      const editor = page.getByTestId('company-schedules');
      await editor.waitFor();
      await editor.getByLabel('Segunda-feira início', { exact: true }).fill('09:00');
      await editor.getByLabel('Segunda-feira fim', { exact: true }).fill('17:00');
      await editor.getByTestId('company-schedules-save').click();
      await page.getByText('Horários atualizados com sucesso.').first().waitFor();

      const monday = await poll('Monday 09:00–17:00 stored on the company', async () => {
        const { body } = await api<{ schedules?: Day[] }>(`/companies/${companyId}`, token);
        const day = body.schedules?.find((d) => d.weekdayEn === 'monday');
        return day?.startTime === '09:00' ? day : null;
      });
      expect(monday).toEqual({ weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '09:00', endTime: '17:00' });
    }));

  it('scheduleType queue gives the queue dialog a schedules tab; its hours are stored when the queue is saved', () =>
    step('queue hours', pages, async () => {
      await chooseScheduleType('queue');
      // the Horarios tab is only for company hours
      await page.getByRole('tab', { name: 'Horários' }).waitFor({ state: 'detached' });

      const made = await api<{ id: number }>('/queue', token, {
        method: 'POST',
        body: JSON.stringify({ name: `Expediente ${run}`, color: '#3b5998' }),
      });
      expect(made.status).toBe(201);
      queueId = made.body.id;

      await page.goto(`${webUrl}/queues`);
      await page.getByTestId(`queue-row-${queueId}`).getByTestId('queue-edit').click();
      const dialog = page.getByTestId('queue-dialog');
      await dialog.getByRole('tab', { name: 'Horários' }).click();
      const editor = dialog.getByTestId('queue-schedules');
      await editor.waitFor();
      await editor.getByLabel('Terça-feira início', { exact: true }).fill('10:00');
      await editor.getByLabel('Terça-feira fim', { exact: true }).fill('16:00');
      await editor.getByTestId('queue-schedules-save').click();
      await dialog.locator('[data-testid="queue-schedules-note"][data-state="kept"]').waitFor();
      // kept in the dialog only: nothing stored yet
      expect((await api<{ schedules: Day[] }>(`/queue/${queueId}`, token)).body.schedules).toEqual([]);

      await dialog.getByTestId('queue-save').click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByText('Queue saved successfully.').first().waitFor();
      const saved = await poll('the queue with its hours', async () => {
        const { body } = await api<{ schedules: Day[] }>(`/queue/${queueId}`, token);
        return body.schedules.length > 0 ? body.schedules : null;
      });
      expect(saved).toHaveLength(7);
      expect(saved.find((d) => d.weekdayEn === 'tuesday')).toEqual({
        weekday: 'Terça-feira',
        weekdayEn: 'tuesday',
        startTime: '10:00',
        endTime: '16:00',
      });

      // the saved hours come back in the dialog
      await page.getByTestId(`queue-row-${queueId}`).getByTestId('queue-edit').click();
      await dialog.getByRole('tab', { name: 'Horários' }).click();
      await expect(dialog.getByLabel('Terça-feira início', { exact: true }).inputValue()).resolves.toBe('10:00');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
    }));

  it('puts scheduleType back to disabled: the queue dialog has no schedules tab again', () =>
    step('schedule type back', pages, async () => {
      await page.goto(`${webUrl}/settings`);
      await page.getByTestId('settings-page').waitFor();
      await chooseScheduleType('disabled');
      await page.goto(`${webUrl}/queues`);
      await page.getByTestId(`queue-row-${queueId}`).getByTestId('queue-edit').click();
      const dialog = page.getByTestId('queue-dialog');
      await dialog.getByTestId('queue-tab-data').waitFor();
      expect(await dialog.getByTestId('queue-tab-schedules').count()).toBe(0);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
    }));
});
