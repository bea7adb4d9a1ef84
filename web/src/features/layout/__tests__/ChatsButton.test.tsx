import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { act, fireEvent, waitFor, within } from '@testing-library/react';
import { SocketChannels, type ChatChannelPayload, type ChatDto, type UserDto } from '@wa/contracts';
import { Route, Routes, useLocation } from 'react-router-dom';
import { sessionStarted } from '../../../app/session';
import { makeStore } from '../../../app/store';
import { RealtimeContext } from '../../../realtime/RealtimeProvider';
import { useSocketCacheSync } from '../../../realtime/use-socket-cache-sync';
import { teamChatSocket } from '../../team-chat/team-chat.socket';
import { renderWithProviders } from '../../../test/render';
import { SideMenu } from '../SideMenu';
import { ChatsButton } from '../../team-chat/ChatsButton';
import { aChat, aChatUser, ME } from '../../team-chat/__tests__/a-chat';
import { fakeSocket, FakeChatServer } from '../../team-chat/__tests__/fake-chat-server';

const CHANNEL = SocketChannels.chat(1);
let server: FakeChatServer;
let restore: () => void;

beforeEach(() => {
  server = new FakeChatServer();
  server.chats = [
    aChat(1, { members: [8], unreads: { [ME]: 2 } }),
    aChat(2, { ownerId: 8, members: [ME, 9], unreads: { 9: 4 } }),
    aChat(3, { ownerId: 9, members: [ME], unreads: { [ME]: 1 } }),
  ];
  restore = server.install();
});
afterEach(() => restore());

/** The layout's live cache sync, as mounted in the app (the chat channel among the others). */
function CacheSync() {
  useSocketCacheSync(teamChatSocket);
  return null;
}

function Where() {
  return <div data-testid="where">{useLocation().pathname}</div>;
}

/** Lets the popover's positioning (animation frames) settle inside act. */
const settle = () => act(async () => new Promise((resolve) => setTimeout(resolve, 30)));

function renderTopBarAndMenu(user: UserDto = aChatUser({ useInternalChat: true })) {
  const store = makeStore();
  store.dispatch(sessionStarted({ token: 't', user }));
  const socket = fakeSocket();
  const r = renderWithProviders(
    <RealtimeContext.Provider value={socket.client}>
      <CacheSync />
      <ChatsButton />
      <SideMenu collapsed={false} />
      <Routes>
        <Route path="*" element={<Where />} />
      </Routes>
    </RealtimeContext.Provider>,
    { store, route: '/tickets' },
  );
  return { ...r, socket };
}

describe("the top bar's internal chat popover and the side menu's dot (spec 01 §2)", () => {
  it("counts the user's unread chat messages; the popover lists the chats holding them; a click opens the chat", async () => {
    const r = renderTopBarAndMenu();
    await waitFor(() => expect(r.getByTestId('chats-unread-count').textContent).toBe('3'));
    // the unread count of other members (Carla's 4 in chat 2) is not the user's
    expect(r.getByTestId('chats-unread-dot')).toBeTruthy();
    expect(within(r.getByTestId('menu-chats')).getByTestId('chats-unread-dot')).toBeTruthy();
    // the button and the menu share one request
    expect(server.calls.filter((c) => c.path === '/chats')).toHaveLength(1);

    fireEvent.click(r.getByTestId('chats-popover-button'));
    await waitFor(() => expect(r.getAllByTestId('chats-popover-item')).toHaveLength(2));
    await settle();
    const items = r.getAllByTestId('chats-popover-item');
    expect(items.map((el) => el.getAttribute('data-chat-id'))).toEqual(['1', '3']);
    expect(within(items[0]).getByText('Conversa 1')).toBeTruthy();
    expect(within(items[0]).getByTestId('chats-popover-last-message').textContent).toBe('última 1');
    expect(within(items[0]).getByTestId('chats-popover-unread').textContent).toBe('2');
    fireEvent.click(items[1]);
    expect(r.getByTestId('where').textContent).toBe(`/chats/${aChat(3).uuid}`);
    await settle();
  });

  it('follows the live events: read chats clear the count and the dot, a new message brings them back', async () => {
    const r = renderTopBarAndMenu();
    await waitFor(() => expect(r.getByTestId('chats-unread-count').textContent).toBe('3'));
    const read = (id: number): ChatDto => {
      const chat = server.find(String(id)) as ChatDto;
      return { ...chat, users: chat.users.map((u) => (u.userId === ME ? { ...u, unreads: 0 } : u)) };
    };
    r.socket.fire(CHANNEL, { action: 'update', chat: read(1) } satisfies ChatChannelPayload);
    await waitFor(() => expect(r.getByTestId('chats-unread-count').textContent).toBe('1'));
    r.socket.fire(CHANNEL, { action: 'delete', chatId: 3 } satisfies ChatChannelPayload);
    await waitFor(() => expect(r.queryByTestId('chats-unread-count')).toBeNull());
    expect(r.queryByTestId('chats-unread-dot')).toBeNull();

    const incoming = server.receive(2, 9, 'Oi');
    r.socket.fire(CHANNEL, { action: 'new-message', chat: incoming.chat, newMessage: incoming.message } satisfies ChatChannelPayload);
    await waitFor(() => expect(r.getByTestId('chats-unread-count').textContent).toBe('1'));
    expect(r.getByTestId('chats-unread-dot')).toBeTruthy();
  });

  it('says so when nothing is unread', async () => {
    server.chats = [aChat(1), aChat(2, { ownerId: 8, members: [ME] })];
    const r = renderTopBarAndMenu();
    await waitFor(() => expect(server.calls.filter((c) => c.path === '/chats')).toHaveLength(1));
    await waitFor(() => expect(r.getByTestId('chats-popover-button').getAttribute('data-count')).toBe('0'));
    expect(r.queryByTestId('chats-unread-count')).toBeNull();
    expect(r.queryByTestId('chats-unread-dot')).toBeNull();
    fireEvent.click(r.getByTestId('chats-popover-button'));
    expect((await r.findByTestId('chats-popover-empty')).textContent).toBe('Nenhuma mensagem não lida');
    await settle();
  });

  it('without the plan flag useInternalChat: no button, no menu item, nothing asked', async () => {
    const r = renderTopBarAndMenu(aChatUser({ useInternalChat: false }));
    await settle();
    expect(r.queryByTestId('chats-popover-button')).toBeNull();
    expect(r.queryByTestId('menu-chats')).toBeNull();
    expect(r.queryByTestId('chats-unread-dot')).toBeNull();
    expect(server.calls.filter((c) => c.path.startsWith('/chats'))).toHaveLength(0);
  });
});
