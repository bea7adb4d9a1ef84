import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, waitFor, within } from '@testing-library/react';
import type { TicketDto, UserDto } from '@wa/contracts';
import { Route, Routes, useLocation } from 'react-router-dom';
import { changeLanguage, currentLanguage } from '../../../app/i18n';
import { sessionStarted } from '../../../app/session';
import { makeStore } from '../../../app/store';
import { aTicket } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { shortcutOf } from '../../tickets/shortcuts';
import TicketsPage from '../TicketsPage';

const realFetch = globalThis.fetch;
const mine = { userId: 7, user: { id: 7, name: 'Ana' } } as Partial<TicketDto>;
let lists: Record<string, TicketDto[]>;
let puts: Array<{ path: string; body: Record<string, unknown> }>;

beforeEach(() => {
  lists = {
    open: [
      aTicket({ id: 1, status: 'open', ...mine }),
      aTicket({ id: 2, status: 'open', ...mine }),
      aTicket({ id: 3, status: 'open', ...mine }),
    ],
    pending: [aTicket({ id: 4, status: 'pending' }), aTicket({ id: 5, status: 'pending' })],
  };
  puts = [];
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    const url = new URL(req.url);
    const all = [...lists.open, ...lists.pending];
    let body: unknown = [];
    if (req.method === 'PUT') {
      const sent = JSON.parse(await req.text()) as Record<string, unknown>;
      puts.push({ path: url.pathname, body: sent });
      const ticket = all.find((t) => url.pathname === `/tickets/${t.id}`);
      body = { ...ticket, ...sent };
    } else if (url.pathname === '/tickets') {
      const status = url.searchParams.get('status') ?? '';
      body = { tickets: lists[status] ?? [], count: (lists[status] ?? []).length, hasMore: false };
    } else if (url.pathname.startsWith('/tickets/u/')) {
      body = all.find((t) => t.uuid === url.pathname.slice('/tickets/u/'.length));
    } else if (url.pathname.startsWith('/messages/')) {
      body = { messages: [], hasMore: false, nextCursor: null };
    }
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
});
afterEach(async () => {
  globalThis.fetch = realFetch;
  if (currentLanguage() !== 'pt') await changeLanguage('pt');
});

let path = '';
function Where() {
  path = useLocation().pathname;
  return null;
}

async function renderPage(route = '/tickets') {
  const store = makeStore();
  store.dispatch(
    sessionStarted({
      token: 't',
      user: { id: 7, name: 'Ana', companyId: 1, profile: 'user', queueIds: [10], queues: [] } as unknown as UserDto,
    }),
  );
  const r = renderWithProviders(
    <>
      <Routes>
        <Route path="/tickets/:ticketId?" element={<TicketsPage />} />
      </Routes>
      <Where />
    </>,
    { store, route },
  );
  // the tabs settle on a timer of their own
  await act(() => new Promise((done) => setTimeout(done, 0)));
  return r;
}

const press = (key: string, init: KeyboardEventInit = {}, target: Element = document.body) =>
  act(() => {
    fireEvent.keyDown(target, { key, ...init });
  });

describe('keyboard shortcuts of the ticket manager', () => {
  it('J and K (or Alt+↓/↑) open the next and previous ticket of the list', async () => {
    const r = await renderPage();
    await waitFor(() => expect(r.getAllByTestId('ticket-card')).toHaveLength(3));
    await press('j');
    await waitFor(() => expect(path).toBe('/tickets/uuid-1'));
    await press('j');
    await waitFor(() => expect(path).toBe('/tickets/uuid-2'));
    await press('ArrowDown', { altKey: true });
    await waitFor(() => expect(path).toBe('/tickets/uuid-3'));
    await press('k');
    await waitFor(() => expect(path).toBe('/tickets/uuid-2'));
    await press('ArrowUp', { altKey: true });
    await waitFor(() => expect(path).toBe('/tickets/uuid-1'));
  });

  it('does nothing while the user types, nor with Ctrl or ⌘', async () => {
    const r = await renderPage('/tickets/uuid-1');
    const box = await waitFor(() => r.getByTestId('message-textarea'));
    await waitFor(() => expect(r.getAllByTestId('ticket-card')).toHaveLength(3));
    await press('j', {}, box);
    await press('r', {}, box);
    await press('?', { shiftKey: true }, box);
    await press('j', { ctrlKey: true });
    await press('c', { metaKey: true });
    expect(path).toBe('/tickets/uuid-1');
    expect(puts).toEqual([]);
    expect(r.queryByTestId('shortcuts-dialog')).toBeNull();
    expect(document.activeElement).not.toBe(box);
  });

  it('C goes to the reply box; R resolves the open ticket as its button does', async () => {
    const r = await renderPage('/tickets/uuid-2');
    const box = await waitFor(() => r.getByTestId('message-textarea'));
    await waitFor(() => expect((box as HTMLTextAreaElement).disabled).toBe(false));
    await press('c');
    expect(document.activeElement).toBe(box);
    (box as HTMLTextAreaElement).blur();
    await press('r');
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({
      path: '/tickets/2',
      body: { status: 'closed', userId: 7, queueId: 10, useIntegration: false, promptId: null },
    });
    await waitFor(() => expect(path).toBe('/tickets'));
  });

  it('in the pending list J selects a ticket without opening it, and A accepts it', async () => {
    const r = await renderPage();
    fireEvent.click(r.getByTestId('tickets-tab-pending'));
    await waitFor(() => expect(r.getAllByTestId('ticket-card').map((c) => c.getAttribute('data-status'))).toEqual(['pending', 'pending']));
    await press('j');
    await press('j');
    expect(path).toBe('/tickets');
    expect((document.activeElement as HTMLElement).getAttribute('data-ticket-uuid')).toBe('uuid-5');
    await press('a', {}, document.activeElement as Element);
    await waitFor(() => expect(puts).toEqual([{ path: '/tickets/5', body: { status: 'open', userId: 7 } }]));
    await waitFor(() => expect(path).toBe('/tickets/uuid-5'));
  });

  it('A accepts the open pending ticket', async () => {
    const r = await renderPage('/tickets/uuid-4');
    await waitFor(() => r.getByTestId('chat-accept'));
    await press('a');
    await waitFor(() => expect(puts).toEqual([{ path: '/tickets/4', body: { status: 'open', userId: 7 } }]));
  });

  it('"?" opens the sheet of shortcuts, in pt, en and es', async () => {
    const r = await renderPage();
    await press('?', { shiftKey: true });
    const sheet = await waitFor(() => r.getByTestId('shortcuts-dialog'));
    expect(within(sheet).getByText('Atalhos de teclado')).toBeTruthy();
    expect(within(sheet).getByTestId('shortcut-next').textContent).toBe('Próximo ticket da listaJouAlt↓');
    expect(within(sheet).getByTestId('shortcut-resolve').textContent).toBe('Resolver o ticket abertoR');
    await act(() => changeLanguage('en'));
    await waitFor(() => expect(within(sheet).getByText('Keyboard shortcuts')).toBeTruthy());
    expect(within(sheet).getByTestId('shortcut-accept').textContent).toContain('Accept the open pending ticket');
    await act(() => changeLanguage('es'));
    await waitFor(() => expect(within(sheet).getByText('Atajos de teclado')).toBeTruthy());
    // while it is open, its keys are its own
    await press('j', {}, within(sheet).getByTestId('shortcuts-close'));
    expect(path).toBe('/tickets');
    fireEvent.click(within(sheet).getByTestId('shortcuts-close'));
    await waitFor(() => expect(r.queryByTestId('shortcuts-dialog')).toBeNull());
  });
});

describe('what a key press means', () => {
  const key = (k: string, more: Partial<KeyboardEvent> = {}, target: EventTarget | null = document.body) =>
    shortcutOf({
      key: k,
      altKey: false,
      ctrlKey: false,
      metaKey: false,
      shiftKey: false,
      defaultPrevented: false,
      isComposing: false,
      target,
      ...more,
    });

  it('letters without modifiers, "?" with Shift, arrows with Alt', () => {
    expect(key('j')).toBe('next');
    expect(key('K')).toBe('previous');
    expect(key('?', { shiftKey: true })).toBe('help');
    expect(key('ArrowDown', { altKey: true })).toBe('next');
    expect(key('ArrowDown')).toBeNull();
    expect(key('r', { shiftKey: true })).toBeNull();
    expect(key('c', { ctrlKey: true })).toBeNull();
  });

  it('nothing in a field or an editable region', () => {
    const editable = document.createElement('div');
    editable.setAttribute('contenteditable', 'true');
    const inner = document.createElement('span');
    editable.appendChild(inner);
    expect(key('j', {}, document.createElement('input'))).toBeNull();
    expect(key('j', {}, document.createElement('textarea'))).toBeNull();
    expect(key('j', {}, inner)).toBeNull();
  });
});
