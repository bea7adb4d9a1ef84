import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, waitFor, within } from '@testing-library/react';
import { SocketChannels, type ChatChannelPayload, type ChatDto, type UserDto } from '@wa/contracts';
import { Route, Routes, useLocation } from 'react-router-dom';
import { ToasterHost } from '../../../app/notify';
import { sessionStarted } from '../../../app/session';
import { makeStore } from '../../../app/store';
import { RealtimeContext } from '../../../realtime/RealtimeProvider';
import { renderWithProviders } from '../../../test/render';
import { syncChatEvent } from '../chats.api';
import ChatsPage from '../ChatsPage';
import { aChat, aChatMessage, aChatUser, ME } from './a-chat';
import { fakeSocket, FakeChatServer } from './fake-chat-server';

const CHANNEL = SocketChannels.chat(1);
let server: FakeChatServer;
let restore: () => void;

beforeEach(() => {
  server = new FakeChatServer();
  server.chats = [
    // most recent first; Ana owns 1, Bruno owns 2, Carla owns 3
    aChat(1, { members: [8], unreads: { [ME]: 2 } }),
    aChat(2, { ownerId: 8, members: [ME, 9] }),
    aChat(3, { ownerId: 9, members: [ME], unreads: { [ME]: 1 } }),
  ];
  server.messages.set(
    1,
    Array.from({ length: 35 }, (_v, i) => aChatMessage(i + 1, 1, { senderId: i % 2 === 0 ? 8 : ME })),
  );
  server.messages.set(2, [aChatMessage(40, 2, { senderId: 8, message: 'Bom dia' })]);
  restore = server.install();
});
afterEach(() => {
  restore();
  jest.restoreAllMocks();
});

function Where() {
  return <div data-testid="where">{useLocation().pathname}</div>;
}

function renderChats(route = '/chats', user: UserDto = aChatUser({ useInternalChat: true })) {
  const store = makeStore();
  store.dispatch(sessionStarted({ token: 'session-token', user }));
  const socket = fakeSocket();
  // what the layout's cache sync does with the same events
  socket.client.on<ChatChannelPayload>(CHANNEL, (p) => syncChatEvent(p, store.getState(), store.dispatch));
  const r = renderWithProviders(
    <RealtimeContext.Provider value={socket.client}>
      <Routes>
        <Route path="/chats/:id?" element={<ChatsPage />} />
        <Route path="/" element={<div data-testid="home" />} />
      </Routes>
      <Where />
      <ToasterHost />
    </RealtimeContext.Provider>,
    { store, route },
  );
  const item = (id: number) =>
    r.getAllByTestId('chat-list-item').find((el) => el.getAttribute('data-chat-id') === String(id)) as HTMLElement;
  const listed = () => r.queryAllByTestId('chat-list-item').map((el) => Number(el.getAttribute('data-chat-id')));
  const shown = () => r.queryAllByTestId('chat-message').map((el) => Number(el.getAttribute('data-message-id')));
  const where = () => r.getByTestId('where').textContent;
  return { ...r, socket, item, listed, shown, where };
}

const uuid = (id: number) => aChat(id).uuid;
const reads = () => server.calls.filter((c) => c.method === 'POST' && /\/read$/.test(c.path));
const pause = (ms = 30) => act(() => new Promise<void>((done) => setTimeout(done, ms)));

async function listLoaded(r: ReturnType<typeof renderChats>) {
  await waitFor(() => expect(r.listed()).toEqual([1, 2, 3]));
}

describe('/chats (spec 02 "Internal chat", §5, §6, §8, §9)', () => {
  it("lists the user's chats with their unread badge; only the owner sees edit and delete; 'Nova' is there", async () => {
    const r = renderChats();
    await listLoaded(r);
    expect(server.calls.find((c) => c.path === '/chats')?.search.get('pageNumber')).toBe('1');
    expect(within(r.item(1)).getByTestId('chat-list-title').textContent).toBe('Conversa 1');
    expect(within(r.item(1)).getByTestId('chat-list-last-message').textContent).toBe('última 1');
    expect(within(r.item(1)).getByTestId('chat-unread-badge').textContent).toBe('2');
    expect(within(r.item(3)).getByTestId('chat-unread-badge').textContent).toBe('1');
    expect(within(r.item(2)).queryByTestId('chat-unread-badge')).toBeNull();
    // said in words with the right plural
    expect(within(r.item(1)).getByTestId('chat-unread-badge').getAttribute('aria-label')).toBe('2 mensagens não lidas');
    expect(within(r.item(3)).getByTestId('chat-unread-badge').getAttribute('aria-label')).toBe('1 mensagem não lida');

    // Ana owns chat 1 only
    expect(within(r.item(1)).getByTestId('chat-edit')).toBeTruthy();
    expect(within(r.item(1)).getByTestId('chat-delete')).toBeTruthy();
    for (const id of [2, 3]) {
      expect(within(r.item(id)).queryByTestId('chat-edit')).toBeNull();
      expect(within(r.item(id)).queryByTestId('chat-delete')).toBeNull();
    }
    expect(r.getByTestId('chat-new').textContent).toBe('Nova');
    expect(r.getByTestId('chat-pane-empty')).toBeTruthy();
    // nothing is read until a chat is opened
    expect(reads()).toHaveLength(0);
  });

  it('opening a chat shows its newest 30 messages and marks it read', async () => {
    const r = renderChats();
    await listLoaded(r);
    fireEvent.click(within(r.item(1)).getByTestId('chat-open'));
    expect(r.where()).toBe(`/chats/${uuid(1)}`);
    await waitFor(() => expect(r.shown()).toHaveLength(30));
    expect(r.shown()[0]).toBe(6);
    expect(r.shown().at(-1)).toBe(35);
    expect(r.getByTestId('chat-pane-title').textContent).toBe('Conversa 1');
    expect(r.getByTestId('chat-pane-members').textContent).toBe('Bruno');
    expect(server.calls.find((c) => c.path === '/chats/1/messages')?.search.get('pageNumber')).toBe('1');

    // mine on one side, theirs with the sender's name
    const mine = r.getAllByTestId('chat-message').find((el) => el.getAttribute('data-message-id') === '6') as HTMLElement;
    const theirs = r.getAllByTestId('chat-message').find((el) => el.getAttribute('data-message-id') === '7') as HTMLElement;
    expect(mine.getAttribute('data-mine')).toBe('true');
    expect(within(mine).queryByTestId('chat-message-sender')).toBeNull();
    expect(theirs.getAttribute('data-mine')).toBe('false');
    expect(within(theirs).getByTestId('chat-message-sender').textContent).toBe('Bruno');
    expect(within(theirs).getByTestId('chat-message-text').textContent).toBe('mensagem 7');

    await waitFor(() => expect(reads()).toHaveLength(1));
    expect(reads()[0]).toMatchObject({ path: '/chats/1/read', body: { userId: ME } });
    await waitFor(() => expect(within(r.item(1)).queryByTestId('chat-unread-badge')).toBeNull());
    expect(r.item(1).getAttribute('data-selected')).toBe('true');
    // a chat without unread messages is not read again
    fireEvent.click(within(r.item(2)).getByTestId('chat-open'));
    await waitFor(() => expect(r.getByTestId('chat-pane-title').textContent).toBe('Conversa 2'));
    await pause();
    expect(reads()).toHaveLength(1);
  });

  it('loads older messages only once scrolled under 600 px from the top, keeping them in order', async () => {
    const r = renderChats(`/chats/${uuid(1)}`);
    await waitFor(() => expect(r.shown()).toHaveLength(30));
    const pane = r.getByTestId('chat-messages');
    let top = 0;
    Object.defineProperty(pane, 'scrollTop', { configurable: true, get: () => top, set: (v: number) => (top = v) });
    const pages = () => server.calls.filter((c) => c.path === '/chats/1/messages').map((c) => c.search.get('pageNumber'));

    top = 600;
    fireEvent.scroll(pane);
    await pause();
    expect(pages()).toEqual(['1']);

    top = 599;
    fireEvent.scroll(pane);
    await waitFor(() => expect(r.shown()).toHaveLength(35));
    expect(pages()).toEqual(['1', '2']);
    expect(r.shown()).toEqual(Array.from({ length: 35 }, (_v, i) => i + 1));

    // no page left: scrolling to the top asks for nothing more
    top = 0;
    fireEvent.scroll(pane);
    await pause();
    expect(pages()).toEqual(['1', '2']);
  });

  it('Enter sends the text trimmed; empty or whitespace-only text is not sent; Shift+Enter does not send', async () => {
    const r = renderChats(`/chats/${uuid(2)}`);
    await waitFor(() => expect(r.shown()).toEqual([40]));
    const input = r.getByTestId('chat-message-input') as HTMLTextAreaElement;
    const sends = () => server.calls.filter((c) => c.method === 'POST' && c.path === '/chats/2/messages');

    fireEvent.keyDown(input, { key: 'Enter' });
    fireEvent.change(input, { target: { value: '   \n  ' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect((r.getByTestId('chat-send') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(r.getByTestId('chat-send'));
    fireEvent.change(input, { target: { value: 'linha 1' } });
    fireEvent.keyDown(input, { key: 'Enter', shiftKey: true });
    await pause();
    expect(sends()).toHaveLength(0);

    fireEvent.change(input, { target: { value: '  Olá equipe  ' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await waitFor(() => expect(sends()).toHaveLength(1));
    expect(sends()[0].body).toEqual({ message: 'Olá equipe' });
    expect(input.value).toBe('');
    await waitFor(() => expect(r.shown()).toHaveLength(2));
    expect(r.getAllByTestId('chat-message-text').at(-1)?.textContent).toBe('Olá equipe');
    // the chat goes to the top of the list with its new last message
    await waitFor(() => expect(r.listed()).toEqual([2, 1, 3]));
    expect(within(r.item(2)).getByTestId('chat-list-last-message').textContent).toBe('Olá equipe');

    // the send button sends as well
    fireEvent.change(input, { target: { value: 'Outra' } });
    fireEvent.click(r.getByTestId('chat-send'));
    await waitFor(() => expect(sends()).toHaveLength(2));
    expect(sends()[1].body).toEqual({ message: 'Outra' });
  });

  it("someone else's message in the open chat is shown and read; one in another chat raises its badge and takes it to the top", async () => {
    const r = renderChats(`/chats/${uuid(2)}`);
    await waitFor(() => expect(r.shown()).toEqual([40]));
    await listLoaded(r);
    expect(reads()).toHaveLength(0);

    const incoming = server.receive(2, 9, 'Oi Ana');
    r.socket.fire(CHANNEL, { action: 'new-message', chat: incoming.chat, newMessage: incoming.message } satisfies ChatChannelPayload);
    await waitFor(() => expect(r.shown()).toEqual([40, incoming.message.id]));
    await waitFor(() => expect(reads().map((c) => c.path)).toEqual(['/chats/2/read']));
    expect(r.listed()).toEqual([2, 1, 3]);
    await waitFor(() => expect(within(r.item(2)).queryByTestId('chat-unread-badge')).toBeNull());

    // her own message (from another tab) is not read again
    const own = aChatMessage(900, 2, { senderId: ME, message: 'de outra aba' });
    r.socket.fire(CHANNEL, {
      action: 'new-message',
      chat: { ...(server.find('2') as ChatDto), lastMessage: 'de outra aba' },
      newMessage: own,
    } satisfies ChatChannelPayload);
    await waitFor(() => expect(r.shown()).toContain(900));
    // the same event twice adds the message once
    r.socket.fire(CHANNEL, {
      action: 'new-message',
      chat: { ...(server.find('2') as ChatDto), lastMessage: 'de outra aba' },
      newMessage: own,
    } satisfies ChatChannelPayload);
    await pause();
    expect(r.shown().filter((id) => id === 900)).toHaveLength(1);

    // another chat: its badge, at the top; not read
    const elsewhere = server.receive(3, 9, 'Reunião às 15h');
    r.socket.fire(CHANNEL, { action: 'new-message', chat: elsewhere.chat, newMessage: elsewhere.message } satisfies ChatChannelPayload);
    await waitFor(() => expect(r.listed()).toEqual([3, 2, 1]));
    expect(within(r.item(3)).getByTestId('chat-unread-badge').textContent).toBe('2');
    expect(within(r.item(3)).getByTestId('chat-list-last-message').textContent).toBe('Reunião às 15h');
    await pause();
    expect(reads().map((c) => c.path)).toEqual(['/chats/2/read']);
    expect(r.shown()).not.toContain(elsewhere.message.id);
  });

  it('live updates: a chat the user is put in appears, a rename shows, a deleted open chat goes back to /chats', async () => {
    const r = renderChats(`/chats/${uuid(2)}`);
    await listLoaded(r);
    await waitFor(() => expect(r.getByTestId('chat-pane-title').textContent).toBe('Conversa 2'));

    const added = aChat(5, { ownerId: 10, members: [ME], title: 'Plantão', updatedAt: '2026-11-22T15:00:00.000Z' });
    r.socket.fire(CHANNEL, { action: 'update', chat: added } satisfies ChatChannelPayload);
    await waitFor(() => expect(r.listed()).toEqual([5, 1, 2, 3]));

    r.socket.fire(CHANNEL, {
      action: 'update',
      chat: { ...aChat(2, { ownerId: 8, members: [ME, 9] }), title: 'Vendas' },
    } satisfies ChatChannelPayload);
    await waitFor(() => expect(within(r.item(2)).getByTestId('chat-list-title').textContent).toBe('Vendas'));
    expect(r.getByTestId('chat-pane-title').textContent).toBe('Vendas');

    r.socket.fire(CHANNEL, { action: 'delete', chatId: 2 } satisfies ChatChannelPayload);
    await waitFor(() => expect(r.where()).toBe('/chats'));
    expect(r.listed()).toEqual([5, 1, 3]);
    expect(r.getByTestId('chat-pane-empty')).toBeTruthy();
    expect(server.calls.filter((c) => c.path === `/chats/${uuid(2)}`)).toHaveLength(0);
  });

  it("'Nova': the title and at least one user are required (the spec's alerts); saving creates the chat and opens it", async () => {
    const r = renderChats();
    await listLoaded(r);
    fireEvent.click(r.getByTestId('chat-new'));
    const dialog = await r.findByTestId('chat-dialog');
    await waitFor(() => expect(within(dialog).getAllByTestId('chat-dialog-user')).toHaveLength(3));
    // the company's users but Ana, by name
    expect(
      within(dialog)
        .getAllByTestId('chat-dialog-user')
        .map((el) => el.textContent),
    ).toEqual(['Bruno', 'Carla', 'Davi']);

    fireEvent.click(within(dialog).getByTestId('chat-dialog-save'));
    await r.findByText('Por favor, preencha o título da conversa.');
    fireEvent.change(within(dialog).getByTestId('chat-dialog-title'), { target: { value: '   ' } });
    fireEvent.click(within(dialog).getByTestId('chat-dialog-save'));
    fireEvent.change(within(dialog).getByTestId('chat-dialog-title'), { target: { value: '  Equipe  ' } });
    fireEvent.click(within(dialog).getByTestId('chat-dialog-save'));
    await r.findByText('Por favor, selecione pelo menos um usuário.');
    await pause();
    expect(server.writes()).toEqual([]);

    fireEvent.change(within(dialog).getByTestId('chat-dialog-user-search'), { target: { value: 'car' } });
    await waitFor(() =>
      expect(
        within(dialog)
          .getAllByTestId('chat-dialog-user')
          .map((el) => el.textContent),
      ).toEqual(['Carla']),
    );
    fireEvent.click(within(within(dialog).getByTestId('chat-dialog-user')).getByRole('checkbox'));
    await waitFor(() => expect(within(dialog).getByTestId('chat-dialog-selected').textContent).toBe('(1)'));
    fireEvent.click(within(dialog).getByTestId('chat-dialog-save'));

    await waitFor(() => expect(server.writes()).toEqual(['POST /chats']));
    expect(server.calls.find((c) => c.method === 'POST')?.body).toEqual({ title: 'Equipe', users: [{ id: 9 }] });
    await waitFor(() => expect(r.queryByTestId('chat-dialog')).toBeNull());
    const created = server.chats.find((c) => c.title === 'Equipe');
    // the router's navigation is a transition: it may land after the dialog is gone
    await waitFor(() => expect(r.where()).toBe(`/chats/${created?.uuid}`));
    await waitFor(() => expect(r.listed()[0]).toBe(created?.id));
    expect(r.getByTestId('chat-pane-title').textContent).toBe('Equipe');
  });

  it('the owner edits the title and the members (PUT) and deletes the chat after confirming (DELETE)', async () => {
    const r = renderChats(`/chats/${uuid(1)}`);
    await listLoaded(r);
    fireEvent.click(within(r.item(1)).getByTestId('chat-edit'));
    const dialog = await r.findByTestId('chat-dialog');
    expect((within(dialog).getByTestId('chat-dialog-title') as HTMLInputElement).value).toBe('Conversa 1');
    await waitFor(() => expect(within(dialog).getAllByTestId('chat-dialog-user')).toHaveLength(3));
    const box = (name: string) =>
      within(
        within(dialog)
          .getAllByTestId('chat-dialog-user')
          .find((el) => el.textContent === name) as HTMLElement,
      ).getByRole('checkbox') as HTMLInputElement;
    expect(box('Bruno').checked).toBe(true);
    expect(box('Carla').checked).toBe(false);

    fireEvent.change(within(dialog).getByTestId('chat-dialog-title'), { target: { value: 'Vendas' } });
    expect(within(dialog).getByTestId('chat-dialog-selected').textContent).toBe('(1)');
    fireEvent.click(box('Carla'));
    await waitFor(() => expect(within(dialog).getByTestId('chat-dialog-selected').textContent).toBe('(2)'));
    expect(box('Carla').checked).toBe(true);
    fireEvent.click(within(dialog).getByTestId('chat-dialog-save'));
    await waitFor(() => expect(server.writes()).toContain('PUT /chats/1'));
    expect(server.calls.find((c) => c.method === 'PUT')?.body).toEqual({ title: 'Vendas', users: [{ id: 8 }, { id: 9 }] });
    await waitFor(() => expect(within(r.item(1)).getByTestId('chat-list-title').textContent).toBe('Vendas'));
    expect(r.queryByTestId('chat-dialog')).toBeNull();
    expect(r.where()).toBe(`/chats/${uuid(1)}`);

    fireEvent.click(within(r.item(1)).getByTestId('chat-delete'));
    fireEvent.click(await r.findByTestId('confirm-ok'));
    await waitFor(() => expect(server.writes()).toContain('DELETE /chats/1'));
    await waitFor(() => expect(r.listed()).toEqual([2, 3]));
    await waitFor(() => expect(r.where()).toBe('/chats'));
    expect(r.getByTestId('chat-pane-empty')).toBeTruthy();
    // the chat just deleted is not asked for by itself on the way out
    expect(server.calls.filter((c) => c.path === `/chats/${uuid(1)}`)).toHaveLength(0);
  });

  it('opens a chat that is not among the loaded pages by its uuid', async () => {
    server.chats = Array.from({ length: 22 }, (_v, i) => aChat(i + 1, { ownerId: 8, members: [ME] }));
    const r = renderChats(`/chats/${uuid(22)}`);
    await waitFor(() => expect(r.getByTestId('chat-pane-title').textContent).toBe('Conversa 22'));
    expect(r.listed()).toHaveLength(20);
    expect(server.calls.some((c) => c.method === 'GET' && c.path === `/chats/${uuid(22)}`)).toBe(true);
  });

  it('failed requests are only logged, never shown; a message that failed to send comes back to the input', async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    server.fail = (method, path) => method === 'POST' && path.endsWith('/messages');
    const r = renderChats(`/chats/${uuid(2)}`);
    await waitFor(() => expect(r.shown()).toEqual([40]));
    const input = r.getByTestId('chat-message-input') as HTMLTextAreaElement;
    fireEvent.change(input, { target: { value: 'não vai' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    await waitFor(() => expect(logged).toHaveBeenCalledWith('[chats] sending to chat 2 failed', expect.anything()));
    await waitFor(() => expect(input.value).toBe('não vai'));
    expect(r.shown()).toEqual([40]);

    server.fail = (method, path) => method === 'GET' && path === '/chats';
    const other = renderChats('/chats');
    await waitFor(() => expect(logged).toHaveBeenCalledWith('[chats] loading the chats failed', expect.anything()));
    await pause(100);
    expect(other.queryByText('Ocorreu um erro interno.')).toBeNull();
    expect(other.queryByText('boom')).toBeNull();
  });

  it("on narrow screens the list and the messages are two tabs, 'Chats' and 'Mensagens'", async () => {
    const width = window.innerWidth;
    Object.defineProperty(window, 'innerWidth', { configurable: true, value: 500 });
    try {
      const r = renderChats();
      expect(r.getByTestId('chats-page').getAttribute('data-layout')).toBe('tabs');
      expect(r.getByTestId('chats-tab-chats').textContent).toBe('Chats');
      expect(r.getByTestId('chats-tab-messages').textContent).toBe('Mensagens');
      await listLoaded(r);
      expect(r.queryByTestId('chat-pane')).toBeNull();
      fireEvent.click(within(r.item(2)).getByTestId('chat-open'));
      await waitFor(() => expect(r.getByTestId('chat-pane-title').textContent).toBe('Conversa 2'));
      expect(r.queryByTestId('chat-list')).toBeNull();
      fireEvent.click(r.getByTestId('chats-tab-chats'));
      await waitFor(() => expect(r.getByTestId('chat-list')).toBeTruthy());
      expect(r.queryByTestId('chat-pane')).toBeNull();
    } finally {
      Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
    }
  });

  it('without the plan flag useInternalChat: the notice, then / after 1 s, and nothing is loaded', async () => {
    const r = renderChats('/chats', aChatUser({ useInternalChat: false }));
    expect(r.getByTestId('page-not-allowed').textContent).toBe(
      'Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.',
    );
    await waitFor(() => expect(r.getByTestId('home')).toBeTruthy(), { timeout: 3000 });
    expect(server.calls.filter((c) => c.path.startsWith('/chats'))).toHaveLength(0);
  });
});
