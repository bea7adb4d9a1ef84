import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, waitFor, within } from '@testing-library/react';
import type { PlanDto, UserDto } from '@wa/contracts';
import { Route, Routes } from 'react-router-dom';
import { sessionStarted } from '../../../app/session';
import { makeStore } from '../../../app/store';
import { renderWithProviders } from '../../../test/render';
import MessagesApiPage from '../MessagesApiPage';

const realFetch = globalThis.fetch;
let calls: Array<{ url: string; init: RequestInit }> = [];

beforeEach(() => {
  calls = [];
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(input), init: init ?? {} });
    const body = {
      id: 7,
      ticketId: 3,
      number: '5511987654321',
      body: 'oi',
      mediaType: 'chat',
      state: 'queued',
      ack: 0,
      createdAt: '2026-11-01T00:00:00.000Z',
      updatedAt: '2026-11-01T00:00:00.000Z',
    };
    return new Response(JSON.stringify(body), { status: 202, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
});

function adminWith(plan: Partial<PlanDto>): UserDto {
  return {
    id: 1,
    name: 'Admin',
    email: 'admin@x.com',
    profile: 'admin',
    companyId: 1,
    whatsappId: null,
    allTicket: 'enabled',
    super: false,
    online: true,
    queues: [],
    queueIds: [],
    company: {
      id: 1,
      name: 'Loja',
      dueDate: '2027-01-01',
      status: true,
      planId: 1,
      plan: { id: 1, name: 'P', users: 1, connections: 1, queues: 1, value: 0, ...plan } as PlanDto,
      settings: [],
    },
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
  };
}

function renderFor(user: UserDto) {
  const store = makeStore();
  store.dispatch(sessionStarted({ token: 'session-token', user }));
  return renderWithProviders(
    <Routes>
      <Route path="/messages-api" element={<MessagesApiPage />} />
      <Route path="/" element={<div data-testid="home" />} />
    </Routes>,
    { store, route: '/messages-api' },
  );
}

describe('/messages-api (spec 02 §2, §5, §6)', () => {
  it('documents the API and sends the test text with the typed token, without the session', async () => {
    const r = renderFor(adminWith({ useExternalApi: true }));
    expect(r.getByTestId('messages-api-endpoint').textContent).toBe('POST http://localhost:8080/api/messages/send');
    const form = within(r.getByTestId('messages-api-text-form'));
    fireEvent.click(form.getByTestId('messages-api-text-submit'));
    expect(form.getAllByText('Obrigatório')).toHaveLength(3);
    expect(calls).toHaveLength(0);

    fireEvent.change(form.getByTestId('messages-api-text-token'), { target: { value: 'conn-token' } });
    fireEvent.change(form.getByTestId('messages-api-text-number'), { target: { value: '5511987654321' } });
    fireEvent.change(form.getByTestId('messages-api-text-body'), { target: { value: 'oi' } });
    fireEvent.click(form.getByTestId('messages-api-text-submit'));
    const answer = await form.findByTestId('messages-api-text-answer');
    expect(answer.getAttribute('data-status')).toBe('202');
    expect(answer.getAttribute('data-state')).toBe('queued');
    expect(calls[0]?.url).toBe('http://localhost:8080/api/messages/send');
    expect(calls[0]?.init.credentials).toBe('omit');
    expect((calls[0]?.init.headers as Record<string, string>).authorization).toBe('Bearer conn-token');
  });

  it('without the plan: the notice, then / after 1 s', async () => {
    const r = renderFor(adminWith({ useExternalApi: false }));
    expect(r.getByTestId('page-not-allowed').textContent).toBe(
      'Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.',
    );
    expect(r.queryByTestId('messages-api-page')).toBeNull();
    await waitFor(() => expect(r.getByTestId('home')).toBeTruthy(), { timeout: 3000 });
  });
});
