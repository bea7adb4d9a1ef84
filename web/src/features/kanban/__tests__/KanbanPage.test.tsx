import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, waitFor, within } from '@testing-library/react';
import type { PlanDto, TicketDto, UserDto } from '@wa/contracts';
import { Route, Routes } from 'react-router-dom';
import { ToasterHost } from '../../../app/notify';
import { sessionStarted } from '../../../app/session';
import { makeStore } from '../../../app/store';
import { RealtimeContext } from '../../../realtime/RealtimeProvider';
import type { RealtimeClient } from '../../../realtime/realtime-client';
import { aTicket } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { aTag } from '../../tags/__tests__/a-tag';
import { moveKanbanTicket } from '../kanban.api';
import KanbanPage from '../KanbanPage';

const novo = aTag(5, 'Novo', { kanban: 1, color: '#1976D2' });
const proposta = aTag(6, 'Proposta', { kanban: 1, color: '#F9A825' });
const lanes = [novo, proposta];
const ref = (t: { id: number; name: string; color: string }) => ({ id: t.id, name: t.name, color: t.color });

const realFetch = globalThis.fetch;
let calls: Array<{ method: string; path: string; search: string }> = [];
/** the server's tickets */
let server: TicketDto[] = [];
let secondPage: TicketDto[] = [];
/** a request the test holds until it says so */
let hold: ((method: string, path: string) => Promise<void> | undefined) | null = null;
let fail: ((method: string, path: string) => boolean) | null = null;

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

beforeEach(() => {
  calls = [];
  hold = null;
  fail = null;
  secondPage = [];
  server = [
    aTicket({
      id: 1,
      status: 'pending',
      tags: [],
      contact: { id: 101, name: 'Maria Souza', number: '5511999990001', profilePicUrl: '' },
      lastMessage: 'Quero um orçamento',
    }),
    aTicket({ id: 2, status: 'open', userId: 7, tags: [ref(novo)], lastMessage: 'Obrigado!' }),
    aTicket({ id: 3, status: 'open', userId: 7, tags: [ref(proposta), ref(novo)] }),
    aTicket({ id: 4, status: 'pending', tags: [{ id: 99, name: 'Interno', color: '#000' }] }),
    aTicket({ id: 5, status: 'open', userId: 7, tags: [ref(proposta)] }),
  ];
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    const url = new URL(req.url);
    calls.push({ method: req.method, path: url.pathname, search: url.search });
    await hold?.(req.method, url.pathname);
    if (fail?.(req.method, url.pathname)) return json({ error: 'ERR_INTERNAL', message: 'boom' }, 500);
    if (url.pathname === '/tags/kanban') return json({ lista: lanes });
    if (url.pathname === '/ticket/kanban') {
      if (url.searchParams.get('cursor') === 'c2') return json({ tickets: secondPage, hasMore: false, nextCursor: null });
      return json({ tickets: server, hasMore: secondPage.length > 0, nextCursor: secondPage.length > 0 ? 'c2' : null });
    }
    const m = /^\/ticket-tags\/(\d+)(?:\/(\d+))?$/.exec(url.pathname);
    if (m) {
      const id = Number(m[1]);
      const tag = lanes.find((l) => l.id === Number(m[2]));
      server = server.map((t) => (t.id !== id ? t : { ...t, tags: req.method === 'DELETE' || !tag ? [] : [...t.tags, ref(tag)] }));
      return json({
        message: req.method === 'DELETE' ? 'Ticket Tag Removido!' : 'Ticket Tag Adicionado com Sucesso!',
        ticket: server.find((t) => t.id === id),
      });
    }
    return json({});
  }) as unknown as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** A stand-in for the live socket: the test fires the server's events. */
function fakeSocket() {
  const handlers = new Map<string, Set<(p: unknown) => void>>();
  const client = {
    on: (channel: string, h: (p: unknown) => void) => {
      const set = handlers.get(channel) ?? new Set();
      handlers.set(channel, set.add(h));
      return () => handlers.get(channel)?.delete(h);
    },
    join: () => () => undefined,
  } as unknown as RealtimeClient;
  return { client, fire: (channel: string, payload: unknown) => act(() => handlers.get(channel)?.forEach((h) => h(payload))) };
}

function aUser(plan: Partial<PlanDto>): UserDto {
  return {
    id: 7,
    name: 'Ana',
    email: 'ana@x.com',
    profile: 'user',
    companyId: 1,
    whatsappId: null,
    allTicket: 'enabled',
    super: false,
    online: true,
    queues: [{ id: 10, name: 'Atendimento', color: '#2e7d32' }] as UserDto['queues'],
    queueIds: [10],
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

function renderBoard(user = aUser({ useKanban: true }), socket = fakeSocket()) {
  const store = makeStore();
  store.dispatch(sessionStarted({ token: 'session-token', user }));
  const r = renderWithProviders(
    <RealtimeContext.Provider value={socket.client}>
      <Routes>
        <Route path="/kanban" element={<KanbanPage />} />
        <Route path="/" element={<div data-testid="home" />} />
        <Route path="/tickets/:ticketId" element={<div data-testid="ticket-page" />} />
      </Routes>
      <ToasterHost />
    </RealtimeContext.Provider>,
    { store, route: '/kanban' },
  );
  const lane = (key: string | number) => r.getByTestId(`kanban-lane-${key}`);
  const cardsIn = (key: string | number) =>
    within(lane(key))
      .queryAllByTestId(/^kanban-card-\d+$/)
      .map((el) => Number((el.getAttribute('data-testid') ?? '').slice('kanban-card-'.length)));
  const ticketOf = (id: number) => server.find((t) => t.id === id) ?? aTicket({ id });
  return { ...r, socket, lane, cardsIn, ticketOf };
}

async function loaded(r: ReturnType<typeof renderBoard>) {
  await waitFor(() => expect(r.getByTestId('kanban-card-1')).toBeTruthy());
  await waitFor(() => expect(r.getByTestId('kanban-lane-6')).toBeTruthy());
}

/**
 * jsdom lays nothing out: the lanes get columns 300 px apart, a card the place of its lane (and the lifted
 * copy the place of the card), so dnd-kit can tell which lane a card is over.
 */
function layOutBoard(): () => void {
  const real = Element.prototype.getBoundingClientRect;
  const rect = (x: number, y: number, width: number, height: number) =>
    ({ x, y, left: x, top: y, width, height, right: x + width, bottom: y + height, toJSON: () => ({}) }) as DOMRect;
  const column = (el: Element | null) => {
    const lane = el?.closest('[data-testid^="kanban-lane-"]');
    const lanes = [...document.querySelectorAll('[data-testid="kanban-board"] > [data-testid^="kanban-lane-"]')];
    return lane ? Math.max(0, lanes.indexOf(lane)) : 0;
  };
  Element.prototype.getBoundingClientRect = function getBoundingClientRect(this: Element) {
    const id = this.getAttribute('data-testid') ?? '';
    if (/^kanban-lane-(open|\d+)$/.test(id)) return rect(column(this) * 300, 0, 280, 600);
    if (/^kanban-card-\d+$/.test(id)) return rect(column(this) * 300 + 10, 50, 260, 100);
    return rect(10, 50, 260, 100);
  };
  return () => {
    Element.prototype.getBoundingClientRect = real;
  };
}

/** Lifts a card with the keyboard (Space), moves it `columns` lanes to the right, and drops it (Space). */
async function dragWithKeyboard(card: HTMLElement, columns: number) {
  const pause = () => act(() => new Promise<void>((done) => setTimeout(done, 5)));
  card.focus();
  fireEvent.keyDown(card, { code: 'Space', key: ' ' });
  await pause();
  // the keyboard moves a lifted card 25 px a step
  for (let i = 0; i < columns * 12; i++) {
    fireEvent.keyDown(document.activeElement ?? card, { code: columns > 0 ? 'ArrowRight' : 'ArrowLeft', key: 'Arrow' });
    await pause();
  }
  fireEvent.keyDown(document.activeElement ?? card, { code: 'Space', key: ' ' });
  await pause();
}

const writes = () => calls.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.path}`);

describe('/kanban (spec 02 "Kanban", §4, §6, §7)', () => {
  it("shows 'Em aberto', then a lane per kanban tag in order, with each card in its lane", async () => {
    const r = renderBoard();
    await loaded(r);
    expect(r.getByTestId('kanban-title').textContent).toBe('Kanban');
    const order = [...r.getByTestId('kanban-board').querySelectorAll('[data-testid^="kanban-lane-"]')]
      .map((el) => el.getAttribute('data-testid'))
      .filter((id) => /^kanban-lane-(open|\d+)$/.test(id ?? ''));
    expect(order).toEqual(['kanban-lane-open', 'kanban-lane-5', 'kanban-lane-6']);
    expect(within(r.lane('open')).getByTestId('kanban-lane-title').textContent).toBe('Em aberto');
    expect(within(r.lane(5)).getByTestId('kanban-lane-title').textContent).toBe('Novo');
    expect(within(r.lane(6)).getByTestId('kanban-lane-title').textContent).toBe('Proposta');
    // coloured by its tag
    expect(within(r.lane(5)).getByTestId('kanban-lane-header').style.background).toBe('rgb(25, 118, 210)');

    expect(r.cardsIn('open')).toEqual([1, 4]);
    expect(r.cardsIn(5)).toEqual([2, 3]);
    expect(r.cardsIn(6)).toEqual([5]);
    expect(within(r.lane(5)).getByTestId('kanban-lane-count').textContent).toBe('2');

    const card = r.getByTestId('kanban-card-1');
    expect(within(card).getByTestId('kanban-card-name').textContent).toBe('Maria Souza');
    expect(within(card).getByTestId('kanban-card-number').textContent).toBe('+55 11 99999-0001');
    expect(within(card).getByTestId('kanban-card-message').textContent).toBe('Quero um orçamento');
    const link = within(card).getByTestId('kanban-card-open');
    expect(link.textContent).toBe('Ver Ticket');
    expect(link.getAttribute('href')).toBe('/tickets/uuid-1');

    // the user's queues, as the product asks
    const list = calls.find((c) => c.path === '/ticket/kanban');
    expect(Object.fromEntries(new URLSearchParams(list?.search))).toEqual({ queueIds: '[10]', teste: 'true', pageNumber: '1' });

    fireEvent.click(link);
    await waitFor(() => expect(r.getByTestId('ticket-page')).toBeTruthy());
  });

  it("loads further pages with 'Carregar mais'", async () => {
    secondPage = [aTicket({ id: 8, status: 'pending', tags: [ref(proposta)] })];
    const r = renderBoard();
    await loaded(r);
    fireEvent.click(r.getByTestId('kanban-more'));
    await waitFor(() => expect(r.cardsIn(6)).toEqual([5, 8]));
    expect(calls.filter((c) => c.path === '/ticket/kanban').map((c) => new URLSearchParams(c.search).get('cursor'))).toEqual([null, 'c2']);
    expect(r.queryByTestId('kanban-more')).toBeNull();
  });

  it('moving a card to a tag lane sends DELETE then PUT, and the card is there at once', async () => {
    const r = renderBoard();
    await loaded(r);
    let release!: () => void;
    const gate = new Promise<void>((done) => (release = done));
    hold = (method) => (method === 'DELETE' ? gate : undefined);
    let moved!: Promise<boolean>;
    act(() => {
      moved = r.store.dispatch(moveKanbanTicket(r.ticketOf(1), 6, lanes));
    });
    // optimistic: in its new lane before the server answers
    await waitFor(() => expect(r.cardsIn(6)).toEqual([1, 5]));
    expect(r.cardsIn('open')).toEqual([4]);
    // the live update of the first request (tags removed) does not send the card back meanwhile
    r.socket.fire('company-1-ticket', { action: 'update', ticket: { ...r.ticketOf(1), tags: [] } });
    await act(() => new Promise<void>((done) => setTimeout(done, 50)));
    expect(r.cardsIn(6)).toEqual([1, 5]);

    release();
    await act(async () => expect(await moved).toBe(true));
    expect(writes()).toEqual(['DELETE /ticket-tags/1', 'PUT /ticket-tags/1/6']);
    await act(() => new Promise<void>((done) => setTimeout(done, 50)));
    expect(r.cardsIn(6)).toEqual([1, 5]);
    expect(r.cardsIn('open')).toEqual([4]);
  });

  it('dragging a card onto another lane moves it there (DELETE then PUT) and says so', async () => {
    const restore = layOutBoard();
    try {
      const r = renderBoard();
      await loaded(r);
      // 'Em aberto' → 'Proposta', two lanes to the right
      await dragWithKeyboard(r.getByTestId('kanban-card-1'), 2);
      await waitFor(() => expect(writes()).toEqual(['DELETE /ticket-tags/1', 'PUT /ticket-tags/1/6']));
      await waitFor(() => expect(r.cardsIn(6)).toEqual([1, 5]));
      expect(r.cardsIn('open')).toEqual([4]);
      await r.findByText('Ticket Tag Adicionado com Sucesso!');

      // and back to 'Em aberto': only the tags removed
      await dragWithKeyboard(r.getByTestId('kanban-card-1'), -2);
      await waitFor(() => expect(writes()).toEqual(['DELETE /ticket-tags/1', 'PUT /ticket-tags/1/6', 'DELETE /ticket-tags/1']));
      await waitFor(() => expect(r.cardsIn('open')).toEqual([1, 4]));
      await r.findByText('Ticket Tag Removido!');

      // dropped on its own lane: nothing is sent
      await dragWithKeyboard(r.getByTestId('kanban-card-1'), 0);
      await act(() => new Promise<void>((done) => setTimeout(done, 50)));
      expect(writes()).toHaveLength(3);
    } finally {
      restore();
    }
  });

  it("moving a card to 'Em aberto' only removes its tags", async () => {
    const r = renderBoard();
    await loaded(r);
    await act(async () => expect(await r.store.dispatch(moveKanbanTicket(r.ticketOf(3), 'open', lanes))).toBe(true));
    expect(writes()).toEqual(['DELETE /ticket-tags/3']);
    await waitFor(() => expect(r.cardsIn('open')).toEqual([1, 3, 4]));
    expect(r.cardsIn(5)).toEqual([2]);
  });

  it('a failed move is only logged, and the card goes back', async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const r = renderBoard();
      await loaded(r);
      let release!: () => void;
      const gate = new Promise<void>((done) => (release = done));
      hold = (method) => (method === 'DELETE' ? gate : undefined);
      fail = (method) => method === 'DELETE';
      let moved!: Promise<boolean>;
      act(() => {
        moved = r.store.dispatch(moveKanbanTicket(r.ticketOf(2), 6, lanes));
      });
      await waitFor(() => expect(r.cardsIn(6)).toEqual([2, 5]));
      release();
      await act(async () => expect(await moved).toBe(false));
      await waitFor(() => expect(r.cardsIn(5)).toEqual([2, 3]));
      expect(r.cardsIn(6)).toEqual([5]);
      expect(writes()).toEqual(['DELETE /ticket-tags/2']);
      expect(logged).toHaveBeenCalledWith('[kanban] moving ticket 2 failed', expect.anything());
    } finally {
      logged.mockRestore();
    }
  });

  it("when the tag cannot be set after the tags were removed, the card shows where the server has it ('Em aberto')", async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const r = renderBoard();
      await loaded(r);
      fail = (method) => method === 'PUT';
      await act(async () => expect(await r.store.dispatch(moveKanbanTicket(r.ticketOf(5), 5, lanes))).toBe(false));
      expect(writes()).toEqual(['DELETE /ticket-tags/5', 'PUT /ticket-tags/5/5']);
      await waitFor(() => expect(r.cardsIn('open')).toEqual([1, 4, 5]));
      expect(r.cardsIn(6)).toEqual([]);
      expect(logged).toHaveBeenCalled();
    } finally {
      logged.mockRestore();
    }
  });

  it('a live ticket update moves the card on the board; a closed or deleted ticket leaves it; a new message updates the card', async () => {
    const r = renderBoard();
    await loaded(r);
    r.socket.fire('company-1-ticket', { action: 'update', ticket: { ...r.ticketOf(1), tags: [ref(proposta)] } });
    await waitFor(() => expect(r.cardsIn(6)).toEqual([1, 5]));
    expect(r.cardsIn('open')).toEqual([4]);

    r.socket.fire('company-1-ticket', { action: 'update', ticket: { ...r.ticketOf(5), status: 'closed' } });
    await waitFor(() => expect(r.cardsIn(6)).toEqual([1]));
    r.socket.fire('company-1-ticket', { action: 'delete', ticketId: 2 });
    await waitFor(() => expect(r.cardsIn(5)).toEqual([3]));
    // someone else took an open ticket: an agent's board lets it go
    r.socket.fire('company-1-ticket', { action: 'update', ticket: { ...r.ticketOf(3), userId: 8 } });
    await waitFor(() => expect(r.cardsIn(5)).toEqual([]));

    // a ticket new to the board comes in first
    r.socket.fire('company-1-ticket', { action: 'update', ticket: aTicket({ id: 9, status: 'pending', tags: [] }) });
    await waitFor(() => expect(r.cardsIn('open')).toEqual([9, 4]));

    r.socket.fire('company-1-appMessage', {
      action: 'create',
      message: { id: 50, ticketId: 4 },
      ticket: { ...r.ticketOf(4), lastMessage: 'Chegou agora' },
      contact: r.ticketOf(4).contact,
    });
    await waitFor(() => expect(r.cardsIn('open')).toEqual([4, 9]));
    expect(within(r.getByTestId('kanban-card-4')).getByTestId('kanban-card-message').textContent).toBe('Chegou agora');
    expect(writes()).toEqual([]);
  });

  it('without the plan flag useKanban: the notice, then / after 1 s, and nothing is loaded', async () => {
    const r = renderBoard(aUser({ useKanban: false }));
    expect(r.getByTestId('page-not-allowed').textContent).toBe(
      'Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.',
    );
    expect(r.queryByTestId('kanban-page')).toBeNull();
    await waitFor(() => expect(r.getByTestId('home')).toBeTruthy(), { timeout: 3000 });
    expect(calls.filter((c) => c.path === '/ticket/kanban' || c.path === '/tags/kanban')).toHaveLength(0);
  });
});
