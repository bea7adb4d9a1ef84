import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, waitFor } from '@testing-library/react';
import { loadToaster } from '../../../app/notify';
import { clearSession, storeSession } from '../../../app/storage';
import CampaignSettingsPage from '../CampaignSettingsPage';
import { json, renderPage } from './harness';

const realFetch = globalThis.fetch;
let posted: unknown[] = [];
let saved: Array<{ key: string; value: string }> = [];

beforeEach(() => {
  posted = [];
  saved = [{ key: 'messageInterval', value: '10' }];
  storeSession('session-token');
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    const url = new URL(req.url);
    if (url.pathname === '/campaign-settings' && req.method === 'POST') {
      posted.push(JSON.parse(await req.clone().text()));
      return json([]);
    }
    if (url.pathname === '/campaign-settings') return json(saved);
    return json({});
  }) as unknown as typeof fetch;
});

afterEach(async () => {
  globalThis.fetch = realFetch;
  clearSession();
  (await loadToaster()).toaster.remove();
});

describe('/campaigns-config (spec 02 §2, §5, §9)', () => {
  it('shows the saved intervals (defaults for the rest), adds a variable once, and saves all in one body', async () => {
    const r = renderPage(<CampaignSettingsPage />, { path: '/campaigns-config', route: '/campaigns-config', handlers: [] });
    const select = (k: string) => r.getByTestId(`campaign-settings-${k}`) as HTMLSelectElement;
    await waitFor(() => expect(select('messageInterval').value).toBe('10'));
    expect(select('longerIntervalAfter').value).toBe('20');
    expect(select('greaterInterval').value).toBe('60');
    expect(Array.from(select('messageInterval').options).map((o) => o.value)).toEqual(['0', '5', '10', '15', '20']);
    const add = (key: string, value: string) => {
      fireEvent.change(r.getByTestId('campaign-settings-key'), { target: { value: key } });
      fireEvent.change(r.getByTestId('campaign-settings-value'), { target: { value } });
      fireEvent.click(r.getByTestId('campaign-settings-add'));
    };
    add('cupom', 'BLACK10');
    add('cupom', 'outro');
    add('loja', 'Centro');
    expect(r.getAllByTestId('campaign-settings-variable').map((row) => row.textContent)).toEqual(['{cupom}BLACK10', '{loja}Centro']);
    fireEvent.change(select('greaterInterval'), { target: { value: '120' } });
    fireEvent.click(r.getByTestId('campaign-settings-save'));
    await r.findByText('Configurações salvas');
    expect(posted).toEqual([
      {
        settings: {
          messageInterval: 10,
          longerIntervalAfter: 20,
          greaterInterval: 120,
          variables: [
            { key: 'cupom', value: 'BLACK10' },
            { key: 'loja', value: 'Centro' },
          ],
        },
      },
    ]);
  });

  it("keeps the company's opt-out words and saves them as typed", async () => {
    saved = [{ key: 'optOutKeywords', value: '["SAIR"]' }];
    const r = renderPage(<CampaignSettingsPage />, { path: '/campaigns-config', route: '/campaigns-config', handlers: [] });
    const words = r.getByTestId('campaign-settings-opt-out') as HTMLInputElement;
    await waitFor(() => expect(words.value).toBe('SAIR'));
    fireEvent.change(words, { target: { value: 'sair, chega' } });
    fireEvent.click(r.getByTestId('campaign-settings-save'));
    await r.findByText('Configurações salvas');
    expect(posted).toEqual([expect.objectContaining({ settings: expect.objectContaining({ optOutKeywords: ['SAIR', 'CHEGA'] }) })]);
  });
});
