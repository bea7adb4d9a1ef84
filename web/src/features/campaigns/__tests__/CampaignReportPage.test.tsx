import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { waitFor } from '@testing-library/react';
import type { CampaignDto, CampaignReport } from '@wa/contracts';
import { loadToaster } from '../../../app/notify';
import { clearSession, storeSession } from '../../../app/storage';
import { campaignsSocket } from '../campaigns.socket';
import CampaignReportPage from '../CampaignReportPage';
import { aCampaign, json, renderPage } from './harness';

const realFetch = globalThis.fetch;
let reportLoads = 0;
let campaign: CampaignDto;
let report: CampaignReport;

beforeEach(() => {
  reportLoads = 0;
  campaign = aCampaign(7, 'Black Friday', { status: 'EM_ANDAMENTO' });
  report = {
    valid: 4,
    invalid: 1,
    sent: 3,
    delivered: 1,
    read: 0,
    failed: 0,
    pending: 1,
    confirmationRequested: 2,
    confirmed: 1,
    optedOut: 0,
  };
  storeSession('session-token');
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const url = new URL((input as Request).url);
    if (url.pathname === '/campaigns/7') return json(campaign);
    if (url.pathname === '/campaigns/7/report') {
      reportLoads++;
      return json(report);
    }
    return json({});
  }) as unknown as typeof fetch;
});

afterEach(async () => {
  globalThis.fetch = realFetch;
  clearSession();
  (await loadToaster()).toaster.remove();
});

const render = () =>
  renderPage(<CampaignReportPage />, { path: '/campaign/:campaignId/report', route: '/campaign/7/report', handlers: campaignsSocket });

describe('/campaign/:id/report (spec 02 §2, §4)', () => {
  it('shows delivered of valid, the bar and the cards; the confirmation cards only with confirmation', async () => {
    const r = render();
    await waitFor(() => expect(r.getByTestId('campaign-report-delivered-of-valid').textContent).toBe('1 de 4 entregues'));
    expect(r.getByTestId('campaign-report-progress').getAttribute('aria-valuenow')).toBe('25');
    expect(r.getByTestId('campaign-report-valid-value').textContent).toBe('4');
    expect(r.getByTestId('campaign-report-connection-value').textContent).toBe('Vendas');
    expect(r.getByTestId('campaign-report-contact-list-value').textContent).toBe('Clientes');
    expect(r.getByTestId('campaign-status').textContent).toBe('Em Andamento');
    expect(r.queryByTestId('campaign-report-confirmed')).toBeNull();
  });

  it('follows live updates, and reloads the report 5 s after one turns it FINALIZADA', async () => {
    campaign = { ...campaign, confirmation: true };
    const r = render();
    await waitFor(() => expect(r.getByTestId('campaign-report-confirmed-value').textContent).toBe('1'));
    r.socket.fire('company-1-campaign', { action: 'update', record: campaign, report: { ...report, delivered: 3 } });
    await waitFor(() => expect(r.getByTestId('campaign-report-delivered-of-valid').textContent).toBe('3 de 4 entregues'));
    const loads = reportLoads;
    report = { ...report, delivered: 4, pending: 0 };
    r.socket.fire('company-1-campaign', { action: 'update', record: { ...campaign, status: 'FINALIZADA' } });
    await waitFor(() => expect(r.getByTestId('campaign-status').textContent).toBe('Finalizada'));
    await new Promise((done) => setTimeout(done, 4000));
    expect(reportLoads).toBe(loads);
    await waitFor(() => expect(r.getByTestId('campaign-report-delivered-of-valid').textContent).toBe('4 de 4 entregues'), {
      timeout: 3000,
    });
    expect(reportLoads).toBe(loads + 1);
  });
});
