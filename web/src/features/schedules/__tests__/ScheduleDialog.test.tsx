import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, waitFor } from '@testing-library/react';
import type { ContactDto, ScheduleDto } from '@wa/contracts';
import { aSchedule } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { ScheduleDialog } from '../ScheduleDialog';

const realFetch = globalThis.fetch;
let calls: Array<{ method: string; path: string; search: string; body: unknown }> = [];
let stored: ScheduleDto = aSchedule();

const ana = { id: 21, name: 'Ana Souza', number: '5511988887777' } as ContactDto;

beforeEach(() => {
  calls = [];
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    const url = new URL(req.url);
    const text = req.method === 'GET' ? '' : await req.clone().text();
    calls.push({ method: req.method, path: url.pathname, search: url.search, body: text ? JSON.parse(text) : undefined });
    let body: unknown = {};
    if (url.pathname === '/contacts')
      body = {
        contacts: (url.searchParams.get('searchParam') ?? '').toLowerCase().startsWith('ana') ? [ana] : [],
        hasMore: false,
        count: 1,
      };
    if (url.pathname.startsWith('/schedules')) {
      if (req.method !== 'GET') stored = { ...stored, ...(JSON.parse(text || '{}') as Partial<ScheduleDto>), id: stored.id };
      body = stored;
    }
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
});

const writes = () => calls.filter((c) => c.method !== 'GET');

describe('schedule dialog (spec 01 §2 "Schedule dialog", §5)', () => {
  it("starts one hour ahead, and shows the rules' texts instead of sending a bad form", async () => {
    const r = renderWithProviders(<ScheduleDialog schedule={null} onClose={() => undefined} />);
    expect(r.getByTestId('schedule-dialog-title').textContent).toBe('Novo agendamento');
    expect((r.getByTestId('schedule-send-at') as HTMLInputElement).value).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    fireEvent.click(r.getByTestId('schedule-save'));
    await waitFor(() => expect(r.getAllByText('Obrigatório')).toHaveLength(2));
    fireEvent.change(r.getByTestId('schedule-body'), { target: { value: 'Oi!' } });
    expect(r.getByText('Mensagem muito curta')).toBeTruthy();
    expect(writes()).toHaveLength(0);
  });

  it('finds the contact from 3 letters, then saves the message at the chosen time (sent as an ISO time)', async () => {
    const onSaved = jest.fn();
    const onClose = jest.fn();
    const r = renderWithProviders(<ScheduleDialog schedule={null} onClose={onClose} onSaved={onSaved} />);
    fireEvent.change(r.getByTestId('schedule-contact'), { target: { value: 'An' } });
    expect(r.getByText('Digite pelo menos 3 letras')).toBeTruthy();
    fireEvent.change(r.getByTestId('schedule-contact'), { target: { value: 'Ana' } });
    const option = await waitFor(() => r.getByTestId('schedule-contact-option'), { timeout: 3000 });
    expect(calls.find((c) => c.path === '/contacts')?.search).toBe('?searchParam=Ana');
    fireEvent.click(option);
    expect((r.getByTestId('schedule-contact') as HTMLInputElement).value).toBe('Ana Souza (5511988887777)');
    fireEvent.change(r.getByTestId('schedule-body'), { target: { value: 'Lembrete da sua consulta amanhã' } });
    fireEvent.change(r.getByTestId('schedule-send-at'), { target: { value: '2026-11-24T15:00' } });
    fireEvent.click(r.getByTestId('schedule-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(writes()).toEqual([
      {
        method: 'POST',
        path: '/schedules',
        search: '',
        body: { body: 'Lembrete da sua consulta amanhã', contactId: 21, sendAt: new Date(2026, 10, 24, 15, 0).toISOString() },
      },
    ]);
    expect(onSaved).toHaveBeenCalled();
  });

  it('opened for a contact, keeps that contact', async () => {
    const r = renderWithProviders(
      <ScheduleDialog schedule={null} forContact={{ id: 21, name: 'Ana Souza', number: '5511988887777' }} onClose={() => undefined} />,
    );
    const input = r.getByTestId('schedule-contact') as HTMLInputElement;
    expect(input.value).toBe('Ana Souza (5511988887777)');
    expect(input.disabled).toBe(true);
    fireEvent.change(r.getByTestId('schedule-body'), { target: { value: 'Bom dia, Ana!' } });
    fireEvent.click(r.getByTestId('schedule-save'));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0].body).toMatchObject({ contactId: 21, body: 'Bom dia, Ana!' });
  });

  it('a sent schedule is shown read-only, its status in the title', async () => {
    stored = aSchedule({ id: 5, status: 'ENVIADA', sentAt: '2026-11-24T18:00:02.000Z', ticketId: 9 });
    const r = renderWithProviders(<ScheduleDialog schedule={stored} onClose={() => undefined} />);
    expect(r.getByTestId('schedule-dialog-title').textContent).toBe('Agendamento — Enviada');
    expect(r.queryByTestId('schedule-save')).toBeNull();
    expect((r.getByTestId('schedule-body') as HTMLTextAreaElement).disabled).toBe(true);
    expect(r.getByTestId('schedule-sent-at')).toBeTruthy();
  });

  it('a failed one shows why; saving it again tries again (PUT)', async () => {
    stored = aSchedule({ id: 6, status: 'ERRO', reason: 'Sem conexão padrão' });
    const r = renderWithProviders(<ScheduleDialog schedule={stored} onClose={() => undefined} />);
    expect(r.getByTestId('schedule-dialog-title').textContent).toBe('Agendamento — Erro: Sem conexão padrão');
    fireEvent.click(r.getByTestId('schedule-save'));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toMatchObject({ method: 'PUT', path: '/schedules/6', body: { contactId: 106, body: 'mensagem 6' } });
  });
});
