import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, waitFor, within } from '@testing-library/react';
import type { CampaignDto } from '@wa/contracts';
import { loadToaster } from '../../../app/notify';
import { clearSession, storeSession } from '../../../app/storage';
import { campaignsSocket } from '../campaigns.socket';
import CampaignsPage from '../CampaignsPage';
import { aCampaign, anAdmin, json, renderPage } from './harness';

interface Call {
  method: string;
  path: string;
  body?: unknown;
}

const realFetch = globalThis.fetch;
let calls: Call[] = [];
let campaigns: CampaignDto[] = [];

beforeEach(() => {
  calls = [];
  campaigns = [
    aCampaign(1, 'Black Friday', { status: 'EM_ANDAMENTO', scheduledAt: '2026-11-28T10:00:00.000Z' }),
    aCampaign(2, 'Natal', { status: 'CANCELADA', statusReason: 'A conexão foi desconectada pelo WhatsApp' }),
    aCampaign(3, 'Ano Novo'),
  ];
  storeSession('session-token');
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    const url = new URL(req.url);
    const text = req.method === 'GET' ? '' : await req.clone().text();
    calls.push({ method: req.method, path: url.pathname, body: text ? JSON.parse(text) : undefined });
    const id = Number(url.pathname.split('/')[2]);
    if (url.pathname === '/campaigns' && req.method === 'GET') return json({ records: campaigns, hasMore: false, count: campaigns.length });
    if (url.pathname.endsWith('/cancel')) return json({ error: 'ERR_CAMPAIGN_NOT_RUNNING', message: 'not running' }, 409);
    if (url.pathname.endsWith('/restart')) return json({ ok: true });
    if (url.pathname === '/campaigns' && req.method === 'POST')
      return json(
        { error: 'ERR_VALIDATION', message: 'whatsappId: Required', details: [{ field: 'whatsappId', messages: ['Required'] }] },
        400,
      );
    if (url.pathname === '/contact-lists/list') return json([{ id: 2, name: 'Clientes' }]);
    if (url.pathname === '/tags/list') return json([{ id: 9, name: 'VIP', color: '#000' }]);
    if (url.pathname === '/whatsapp') return json([{ id: 3, name: 'Vendas' }]);
    if (url.pathname === '/files/') return json({ files: [], hasMore: false, count: 0 });
    if (url.pathname === '/campaign-settings') return json([{ key: 'variables', value: JSON.stringify([{ key: 'cupom', value: 'X' }]) }]);
    if (req.method === 'PUT') return json({ ...campaigns.find((c) => c.id === id), ...(JSON.parse(text) as object) });
    return json({});
  }) as unknown as typeof fetch;
});

afterEach(async () => {
  globalThis.fetch = realFetch;
  clearSession();
  (await loadToaster()).toaster.remove();
});

const render = (user = anAdmin()) =>
  renderPage(<CampaignsPage />, { path: '/campaigns', route: '/campaigns', user, handlers: campaignsSocket });
const rowOf = (r: ReturnType<typeof render>, id: number) =>
  r.getAllByTestId('campaign-row').find((row) => row.getAttribute('data-campaign-id') === String(id)) as HTMLElement;

describe('/campaigns (spec 02 §2, §4, §8)', () => {
  it('lists the campaigns with the Portuguese status, the reason the server stopped one, stop on a running one and restart on a cancelled one', async () => {
    const r = render();
    await waitFor(() => expect(r.getAllByTestId('campaign-row')).toHaveLength(3));
    expect(within(rowOf(r, 1)).getByTestId('campaign-status').textContent).toBe('Em Andamento');
    expect(within(rowOf(r, 2)).getByTestId('campaign-status').textContent).toBe('Cancelada');
    expect(within(rowOf(r, 2)).getByTestId('campaign-status-reason').textContent).toBe('A conexão foi desconectada pelo WhatsApp');
    expect(within(rowOf(r, 3)).getByTestId('campaign-status').textContent).toBe('Inativa');
    expect(within(rowOf(r, 1)).queryByTestId('campaign-stop')).not.toBeNull();
    expect(within(rowOf(r, 1)).queryByTestId('campaign-restart')).toBeNull();
    expect(within(rowOf(r, 2)).queryByTestId('campaign-restart')).not.toBeNull();
    expect(within(rowOf(r, 3)).queryByTestId('campaign-stop')).toBeNull();
    expect(within(rowOf(r, 1)).getByText('Clientes')).toBeTruthy();
    expect(within(rowOf(r, 1)).getByText('Vendas')).toBeTruthy();
  });

  it('a refused stop shows the error as a toast; a restart posts and says so', async () => {
    const r = render();
    await waitFor(() => expect(r.getAllByTestId('campaign-row')).toHaveLength(3));
    fireEvent.click(within(rowOf(r, 1)).getByTestId('campaign-stop'));
    await r.findByText('Só uma campanha em andamento pode ser parada.');
    fireEvent.click(within(rowOf(r, 2)).getByTestId('campaign-restart'));
    await r.findByText('Campanha reiniciada');
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/campaigns/1/cancel', '/campaigns/2/restart']);
  });

  it('a running campaign opens read-only; a cancelled one sends only its messages', async () => {
    const r = render();
    await waitFor(() => expect(r.getAllByTestId('campaign-row')).toHaveLength(3));
    fireEvent.click(within(rowOf(r, 1)).getByTestId('campaign-edit'));
    let dialog = await r.findByTestId('campaign-dialog');
    expect(within(dialog).getByTestId('campaign-read-only')).toBeTruthy();
    expect(within(dialog).queryByTestId('campaign-dialog-save')).toBeNull();
    expect((within(dialog).getByTestId('campaign-name') as HTMLInputElement).disabled).toBe(true);
    expect((within(dialog).getByTestId('campaign-message1') as HTMLTextAreaElement).disabled).toBe(true);
    fireEvent.click(within(dialog).getByText('Fechar'));
    await waitFor(() => expect(r.queryByTestId('campaign-dialog')).toBeNull());

    fireEvent.click(within(rowOf(r, 2)).getByTestId('campaign-edit'));
    dialog = await r.findByTestId('campaign-dialog');
    expect((within(dialog).getByTestId('campaign-name') as HTMLInputElement).disabled).toBe(true);
    // the hint names the built-in variables and the company's own
    await waitFor(() =>
      expect(within(dialog).getByTestId('campaign-variables').textContent).toContain('{nome}, {numero}, {email}, {cupom}'),
    );
    fireEvent.change(within(dialog).getByTestId('campaign-message1'), { target: { value: 'Oi {nome}, voltamos!' } });
    fireEvent.click(within(dialog).getByTestId('campaign-dialog-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.method === 'PUT') as Call;
    expect(put.path).toBe('/campaigns/2');
    expect(put.body).toMatchObject({ message1: 'Oi {nome}, voltamos!' });
    expect(put.body).not.toHaveProperty('name');
    expect(put.body).not.toHaveProperty('whatsappId');
  });

  it('a new campaign needs its name (Required, Too Short!)', async () => {
    const r = render();
    await waitFor(() => expect(r.getAllByTestId('campaign-row')).toHaveLength(3));
    fireEvent.click(r.getByTestId('campaigns-add'));
    const dialog = await r.findByTestId('campaign-dialog');
    fireEvent.click(within(dialog).getByTestId('campaign-dialog-save'));
    await within(dialog).findByText('Required');
    fireEvent.change(within(dialog).getByTestId('campaign-name'), { target: { value: 'A' } });
    await within(dialog).findByText('Too Short!');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    // the server's refusal of a field shows under it (a scheduled campaign needs its connection)
    fireEvent.change(within(dialog).getByTestId('campaign-name'), { target: { value: 'Dia das Mães' } });
    fireEvent.change(within(dialog).getByTestId('campaign-scheduledAt'), { target: { value: '2030-05-10T09:00' } });
    fireEvent.click(within(dialog).getByTestId('campaign-dialog-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const connection = within(dialog).getByTestId('campaign-whatsappId').closest('[data-part="root"][data-scope="field"]') as HTMLElement;
    await within(connection).findByText('Required');
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ name: 'Dia das Mães', tagListId: 'Nenhuma', whatsappId: null });
  });

  it('a live update changes the row in place', async () => {
    const r = render();
    await waitFor(() => expect(r.getAllByTestId('campaign-row')).toHaveLength(3));
    const loads = calls.filter((c) => c.path === '/campaigns').length;
    r.socket.fire('company-1-campaign', { action: 'update', record: { ...campaigns[0], status: 'FINALIZADA' } });
    await waitFor(() => expect(within(rowOf(r, 1)).getByTestId('campaign-status').textContent).toBe('Finalizada'));
    expect(calls.filter((c) => c.path === '/campaigns').length).toBe(loads);
  });

  it('without campaigns in the plan, or with campaignsEnabled off, the page turns the user away', async () => {
    const r = render(anAdmin(true, 'false'));
    await r.findByTestId('page-not-allowed');
    expect(calls.some((c) => c.path === '/campaigns')).toBe(false);
  });
});
