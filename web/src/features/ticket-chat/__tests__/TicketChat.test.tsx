import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, waitFor } from '@testing-library/react';
import type { TicketDto, UserDto } from '@wa/contracts';
import { Route, Routes } from 'react-router-dom';
import { changeLanguage } from '../../../app/i18n';
import { ToasterHost } from '../../../app/notify';
import { sessionStarted } from '../../../app/session';
import { makeStore } from '../../../app/store';
import { RealtimeContext } from '../../../realtime/RealtimeProvider';
import type { RealtimeClient } from '../../../realtime/realtime-client';
import { aMessage, aTicket } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import TicketChat from '../TicketChat';

const realFetch = globalThis.fetch;
let answer: (path: string) => { status: number; body: unknown };

beforeEach(() => {
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const url = new URL((input as Request).url);
    const { status, body } = answer(url.pathname);
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** A stand-in for the live socket: the test fires the server's events. */
function fakeSocket() {
  const handlers = new Map<string, (p: unknown) => void>();
  const client = {
    on: (channel: string, h: (p: unknown) => void) => {
      handlers.set(channel, h);
      return () => handlers.delete(channel);
    },
    join: () => () => undefined,
  } as unknown as RealtimeClient;
  return { client, fire: (channel: string, payload: unknown) => act(() => handlers.get(channel)?.(payload)) };
}

function renderChat(uuid: string, socket = fakeSocket()) {
  const store = makeStore();
  store.dispatch(
    sessionStarted({ token: 't', user: { id: 7, name: 'Ana', companyId: 1, profile: 'user', queueIds: [10] } as unknown as UserDto }),
  );
  const r = renderWithProviders(
    <RealtimeContext.Provider value={socket.client}>
      <Routes>
        <Route path="/tickets" element={<div data-testid="list-page" />} />
        <Route path="/tickets/:ticketId" element={<TicketChat uuid={uuid} />} />
      </Routes>
      <ToasterHost />
    </RealtimeContext.Provider>,
    { store, route: `/tickets/${uuid}` },
  );
  return { ...r, socket };
}

function serve(ticket: TicketDto) {
  answer = (path) => {
    if (path === `/tickets/u/${ticket.uuid}`) return { status: 200, body: ticket };
    if (path === `/messages/${ticket.id}`)
      return {
        status: 200,
        body: { messages: [aMessage({ id: 1, ticketId: ticket.id, fromMe: false, body: 'Oi' })], hasMore: false, nextCursor: null },
      };
    return { status: 404, body: { error: 'ERR_NOT_FOUND' } };
  };
}

describe('ticket chat', () => {
  it('outside the user’s queues: "Acesso não permitido", then back to /tickets', async () => {
    answer = (path) =>
      path === '/auth/refresh_token'
        ? { status: 200, body: { token: 'new', user: { id: 7, companyId: 1 } } }
        : { status: 403, body: { error: 'ERR_NO_PERMISSION', message: 'Acesso não permitido', statusCode: 403 } };
    const { findByTestId, findByText } = renderChat('other-queue');
    await findByTestId('list-page');
    await findByText('Acesso não permitido');
  });

  it('shows the buttons of each status', async () => {
    serve(aTicket({ id: 5, uuid: 'p', status: 'pending' }));
    const pending = renderChat('p');
    await pending.findByTestId('chat-accept');
    expect(pending.queryByTestId('chat-resolve')).toBeNull();
    pending.unmount();

    serve(aTicket({ id: 6, uuid: 'o', status: 'open', userId: 7, user: { id: 7, name: 'Ana' } }));
    const open = renderChat('o');
    await open.findByTestId('chat-resolve');
    await open.findByTestId('chat-return');
    expect(open.queryByTestId('chat-accept')).toBeNull();
    expect((open.getByTestId('message-textarea') as HTMLTextAreaElement).disabled).toBe(false);
    open.unmount();

    serve(aTicket({ id: 8, uuid: 'c', status: 'closed' }));
    const closed = renderChat('c');
    await closed.findByTestId('chat-reopen');
    expect((closed.getByTestId('message-textarea') as HTMLTextAreaElement).disabled).toBe(true);
  });

  it('shows the quoted message the server sent with a reply, even when it is not on the loaded page', async () => {
    const ticket = aTicket({ id: 11, uuid: 'q', status: 'open', userId: 7 });
    const older = aMessage({
      id: 40,
      ticketId: 11,
      fromMe: false,
      body: 'Qual o prazo de entrega?',
      contact: { id: 3, name: 'Maria' } as never,
    });
    const reply = aMessage({ id: 90, ticketId: 11, fromMe: true, body: 'Três dias úteis', quotedMsgId: 40, quotedMsg: older });
    answer = (path) => {
      if (path === `/tickets/u/${ticket.uuid}`) return { status: 200, body: ticket };
      if (path === `/messages/${ticket.id}`) return { status: 200, body: { messages: [reply], hasMore: false, nextCursor: null } };
      return { status: 404, body: { error: 'ERR_NOT_FOUND' } };
    };
    const { findByTestId } = renderChat('q');
    const quoted = await findByTestId('message-quoted');
    expect(quoted.getAttribute('data-quoted-id')).toBe('40');
    expect(quoted.textContent).toContain('Qual o prazo de entrega?');
    expect(quoted.textContent).toContain('Maria');
  });

  it("shows a message waiting for the phone's resend as WhatsApp does (a clock, the waiting text) in pt, en and es", async () => {
    const ticket = aTicket({ id: 12, uuid: 'w', status: 'open', userId: 7 });
    const waiting = aMessage({ id: 70, ticketId: 12, fromMe: false, body: '', mediaType: 'ciphertext' });
    const text = aMessage({ id: 71, ticketId: 12, fromMe: false, body: 'Chegou?' });
    answer = (path) => {
      if (path === `/tickets/u/${ticket.uuid}`) return { status: 200, body: ticket };
      if (path === `/messages/${ticket.id}`) return { status: 200, body: { messages: [waiting, text], hasMore: false, nextCursor: null } };
      return { status: 404, body: { error: 'ERR_NOT_FOUND' } };
    };
    const { findByTestId, getAllByTestId } = renderChat('w');
    const shown = await findByTestId('message-waiting');
    expect(shown.textContent).toBe('Aguardando mensagem. Essa ação pode levar alguns instantes.');
    expect(shown.querySelector('svg')).not.toBeNull();
    expect(shown.closest('[data-testid=message]')?.getAttribute('data-message-id')).toBe('70');
    // only that one: the other message shows its text
    expect(getAllByTestId('message-waiting')).toHaveLength(1);
    expect(getAllByTestId('message-body').map((b) => b.textContent)).toEqual([shown.textContent, 'Chegou?']);
    try {
      await act(() => changeLanguage('en'));
      expect((await findByTestId('message-waiting')).textContent).toBe('Waiting for this message. This may take a while.');
      await act(() => changeLanguage('es'));
      expect((await findByTestId('message-waiting')).textContent).toBe('Esperando el mensaje. Esta acción puede tardar unos momentos.');
    } finally {
      await act(() => changeLanguage('pt'));
    }
  });

  it("announces a customer's new message in a polite live region (pt, en, es); not the history, nor the agent's own", async () => {
    const ticket = aTicket({
      id: 14,
      uuid: 'live',
      status: 'open',
      userId: 7,
      contact: { id: 3, name: 'Maria', number: '5511988887777', profilePicUrl: '' },
    });
    serve(ticket);
    const { findByTestId, getByTestId, socket } = renderChat('live');
    // the history's customer message ('Oi') is on screen and not announced
    await findByTestId('message');
    const region = getByTestId('chat-announcer');
    expect(region.getAttribute('aria-live')).toBe('polite');
    expect(region.textContent).toBe('');
    const contact = { id: 3, name: 'Maria', number: '5511988887777', profilePicUrl: '' };
    const arrive = (m: Parameters<typeof aMessage>[0], action: 'create' | 'update' = 'create') =>
      socket.fire('company-1-appMessage', { action, message: aMessage({ ticketId: 14, ...m }), ticket, contact });

    arrive({ id: 2, fromMe: true, body: 'Bom dia, em que posso ajudar?' });
    expect(region.textContent).toBe('');
    arrive({ id: 3, fromMe: false, body: 'Outro ticket', ticketId: 99 });
    expect(region.textContent).toBe('');
    arrive({ id: 4, fromMe: false, body: 'Quero saber do meu pedido' });
    expect(region.textContent).toBe('Nova mensagem de Maria: Quero saber do meu pedido');
    // an ack or an edit of it is not a new message
    arrive({ id: 4, fromMe: false, body: 'Quero saber do meu pedido 123' }, 'update');
    expect(region.textContent).toBe('Nova mensagem de Maria: Quero saber do meu pedido');
    // a long text is cut; a file without a caption is named as an attachment
    arrive({ id: 5, fromMe: false, body: 'a'.repeat(200) });
    expect(region.textContent).toBe(`Nova mensagem de Maria: ${'a'.repeat(80)}...`);
    try {
      await act(() => changeLanguage('en'));
      arrive({ id: 6, fromMe: false, body: '', mediaType: 'image', mediaUrl: 'https://x/y.jpg' });
      expect(region.textContent).toBe('New message from Maria: attachment');
      await act(() => changeLanguage('es'));
      arrive({ id: 7, fromMe: false, body: 'Hola' });
      expect(region.textContent).toBe('Nuevo mensaje de Maria: Hola');
    } finally {
      await act(() => changeLanguage('pt'));
    }
  });

  it('the open ticket deleted: back to /tickets', async () => {
    serve(aTicket({ id: 9, uuid: 'd', status: 'open', userId: 7 }));
    const { findByTestId, socket, queryByTestId } = renderChat('d');
    await findByTestId('ticket-chat');
    await findByTestId('message');
    socket.fire('company-1-ticket', { action: 'delete', ticketId: 99 });
    expect(queryByTestId('ticket-chat')).not.toBeNull();
    socket.fire('company-1-ticket', { action: 'delete', ticketId: 9 });
    await waitFor(() => expect(queryByTestId('list-page')).not.toBeNull());
  });
});
