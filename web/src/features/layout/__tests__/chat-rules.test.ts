import { describe, expect, it } from '@jest/globals';
import type { ChatsPage } from '@wa/contracts';
import { visibleMenuItems } from '../menu-items';
import {
  addChatMessage,
  chatFormOf,
  chatMessageBody,
  chatPath,
  chatPayload,
  chatWithMessage,
  flattenChats,
  isChatOwner,
  isChatParam,
  isSendKey,
  isSendableChatMessage,
  memberNames,
  orderedChatMessages,
  pickableUsers,
  removeChat,
  shouldLoadMoreChats,
  totalUnreads,
  unreadChats,
  unreadLabel,
  unreadOf,
  upsertChat,
  validateChatForm,
  type ChatMessagePages,
  type ChatPages,
} from '../../team-chat/chat-rules';
import { aChat, aChatMessage, ME } from '../../team-chat/__tests__/a-chat';

const ids = (data: ChatPages) => data.pages.map((p) => p.records.map((c) => c.id));
const pages = (...lists: Array<{ ids: number[]; hasMore?: boolean }>): ChatPages => ({
  pages: lists.map((l): ChatsPage => ({ records: l.ids.map((id) => aChat(id)), count: 10, hasMore: l.hasMore ?? false })),
  pageParams: lists.map((_l, i) => i + 1),
});

describe('chat rules (spec 02 "Internal chat", §5, §6, §9)', () => {
  it("reads the user's own unread count, the owner, and the chats with unread messages", () => {
    const a = aChat(1, { members: [8, 9], unreads: { [ME]: 3, 8: 1 } });
    const b = aChat(2, { ownerId: 8, members: [ME], unreads: { 8: 5 } });
    const c = aChat(3, { ownerId: 9, members: [ME], unreads: { [ME]: 1 } });
    expect(unreadOf(a, ME)).toBe(3);
    expect(unreadOf(a, 8)).toBe(1);
    expect(unreadOf(b, ME)).toBe(0);
    expect(unreadOf(a, 42)).toBe(0);
    expect(unreadChats([a, b, c], ME).map((x) => x.id)).toEqual([1, 3]);
    expect(totalUnreads([a, b, c], ME)).toBe(4);
    expect(isChatOwner(a, ME)).toBe(true);
    expect(isChatOwner(b, ME)).toBe(false);
    expect(isChatOwner(null, ME)).toBe(false);
    expect(isChatOwner(a, undefined)).toBe(false);
    expect(memberNames(a, ME)).toEqual(['Bruno', 'Carla']);
  });

  it('opens a chat at /chats/<uuid> and knows it by its uuid or its number', () => {
    const chat = aChat(4);
    expect(chatPath(chat)).toBe(`/chats/${chat.uuid}`);
    expect(isChatParam(chat, chat.uuid)).toBe(true);
    expect(isChatParam(chat, '4')).toBe(true);
    expect(isChatParam(chat, '5')).toBe(false);
    expect(isChatParam(chat, undefined)).toBe(false);
  });

  it('flattens the pages, each chat once', () => {
    expect(flattenChats(pages({ ids: [1, 2] }, { ids: [2, 3] })).map((c) => c.id)).toEqual([1, 2, 3]);
    expect(flattenChats(undefined)).toEqual([]);
  });

  it('a chat with a new message goes to the top; a read or a rename keeps its place; a new chat joins in order', () => {
    // updatedAt falls as the id grows: 1 is the most recent
    const data = pages({ ids: [1, 2, 3] }, { ids: [4, 5] });
    const moved = upsertChat(data, { ...aChat(4), lastMessage: 'oi', updatedAt: '2026-11-22T11:00:00.000Z' }, ME);
    expect(ids(moved)).toEqual([[4, 1, 2, 3], [5]]);
    expect(flattenChats(moved)[0].lastMessage).toBe('oi');
    expect(moved.pages[0].count).toBe(10);

    const renamed = upsertChat(data, { ...aChat(2), title: 'Novo nome' }, ME);
    expect(ids(renamed)).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    expect(flattenChats(renamed)[1].title).toBe('Novo nome');

    const added = upsertChat(data, { ...aChat(9), updatedAt: '2026-11-22T12:00:00.000Z' }, ME);
    expect(ids(added)).toEqual([
      [9, 1, 2, 3],
      [4, 5],
    ]);
    expect(added.pages.every((p) => p.count === 11)).toBe(true);
  });

  it('a chat older than every loaded one waits for its page while there are more; else it goes last', () => {
    const old = { ...aChat(20), updatedAt: '2026-01-01T00:00:00.000Z' };
    expect(ids(upsertChat(pages({ ids: [1, 2] }, { ids: [3], hasMore: true }), old, ME))).toEqual([[1, 2], [3]]);
    expect(ids(upsertChat(pages({ ids: [1, 2] }, { ids: [3] }), old, ME))).toEqual([
      [1, 2],
      [3, 20],
    ]);
  });

  it('a chat the user is no longer in, or deleted, leaves the list', () => {
    const data = pages({ ids: [1, 2, 3] });
    const without = upsertChat(data, aChat(2, { ownerId: 8, members: [9] }), ME);
    expect(ids(without)).toEqual([[1, 3]]);
    expect(without.pages[0].count).toBe(9);
    expect(ids(removeChat(data, 3))).toEqual([[1, 2]]);
    expect(removeChat(data, 42)).toBe(data);
  });

  it('the message just sent becomes the chat’s last message and moves it up', () => {
    const sent = aChatMessage(50, 2, { message: 'Bom dia', senderId: ME, createdAt: '2026-11-22T12:00:00.000Z' });
    const chat = chatWithMessage(aChat(2), sent);
    expect(chat.lastMessage).toBe('Bom dia');
    expect(ids(upsertChat(pages({ ids: [1, 2, 3] }), chat, ME))).toEqual([[2, 1, 3]]);
  });

  it('messages: oldest first over the pages, each once; a new one is appended once', () => {
    const data: ChatMessagePages = {
      // page 1: the newest; page 2: older, overlapping after a message came in meanwhile
      pages: [
        { records: [aChatMessage(4, 1), aChatMessage(5, 1)], count: 5, hasMore: true },
        { records: [aChatMessage(1, 1), aChatMessage(2, 1), aChatMessage(3, 1), aChatMessage(4, 1)], count: 5, hasMore: false },
      ],
      pageParams: [1, 2],
    };
    expect(orderedChatMessages(data).map((m) => m.id)).toEqual([1, 2, 3, 4, 5]);
    const more = addChatMessage(data, aChatMessage(6, 1));
    expect(orderedChatMessages(more).map((m) => m.id)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(more.pages[0].records.at(-1)?.id).toBe(6);
    expect(addChatMessage(more, aChatMessage(6, 1))).toBe(more);
    expect(orderedChatMessages(addChatMessage({ pages: [], pageParams: [] }, aChatMessage(1, 1))).map((m) => m.id)).toEqual([1]);
    expect(orderedChatMessages(undefined)).toEqual([]);
  });

  it('empty or whitespace-only messages are not sent; the text is sent trimmed; Enter sends, Shift+Enter does not', () => {
    expect(isSendableChatMessage('')).toBe(false);
    expect(isSendableChatMessage('  \n\t ')).toBe(false);
    expect(chatMessageBody('   ')).toBeNull();
    expect(chatMessageBody('  olá  ')).toEqual({ message: 'olá' });
    expect(isSendKey({ key: 'Enter', shiftKey: false })).toBe(true);
    expect(isSendKey({ key: 'Enter', shiftKey: true })).toBe(false);
    expect(isSendKey({ key: 'Enter', shiftKey: false, isComposing: true })).toBe(false);
    expect(isSendKey({ key: 'a', shiftKey: false })).toBe(false);
  });

  it('more chats within 100 px of the bottom (older messages: ChatsPage.test, under 600 px from the top)', () => {
    expect(shouldLoadMoreChats({ scrollHeight: 1000, clientHeight: 400, scrollTop: 550 }, true, false)).toBe(true);
    expect(shouldLoadMoreChats({ scrollHeight: 1000, clientHeight: 400, scrollTop: 450 }, true, false)).toBe(false);
    expect(shouldLoadMoreChats({ scrollHeight: 1000, clientHeight: 400, scrollTop: 550 }, false, false)).toBe(false);
  });

  it('the form: the title first, then at least one other user; the body trims the title and names each other member once', () => {
    expect(validateChatForm({ title: '', userIds: [8] }, ME)).toBe('title');
    expect(validateChatForm({ title: '   ', userIds: [] }, ME)).toBe('title');
    expect(validateChatForm({ title: 'Equipe', userIds: [] }, ME)).toBe('users');
    expect(validateChatForm({ title: 'Equipe', userIds: [ME] }, ME)).toBe('users');
    expect(validateChatForm({ title: 'Equipe', userIds: [8] }, ME)).toBeNull();
    expect(chatPayload({ title: '  Equipe  ', userIds: [8, ME, 9, 8] }, ME)).toEqual({ title: 'Equipe', users: [{ id: 8 }, { id: 9 }] });
  });

  it('editing starts from the chat’s title and its other members', () => {
    expect(chatFormOf(aChat(1, { members: [8, 9] }), ME)).toEqual({ title: 'Conversa 1', userIds: [8, 9] });
    expect(chatFormOf(null, ME)).toEqual({ title: '', userIds: [] });
  });

  it('the picker offers the other users by name, filtered without minding case or accents', () => {
    const users = [
      { id: 9, name: 'Carla' },
      { id: ME, name: 'Ana' },
      { id: 8, name: 'Bruno' },
      { id: 10, name: 'Álvaro' },
    ];
    expect(pickableUsers(users, ME, '').map((u) => u.id)).toEqual([10, 8, 9]);
    expect(pickableUsers(users, ME, 'alv').map((u) => u.id)).toEqual([10]);
    expect(pickableUsers(users, ME, ' CAR ').map((u) => u.id)).toEqual([9]);
    expect(pickableUsers(users, ME, 'ana')).toEqual([]);
  });

  it('the unread badge: nothing for none, 99+ past 99', () => {
    expect(unreadLabel(0)).toBeNull();
    expect(unreadLabel(7)).toBe('7');
    expect(unreadLabel(120)).toBe('99+');
  });

  it("the side menu has 'chats' only for plans with useInternalChat (spec 01 §2, spec 02 §6)", () => {
    const agent = { isAdmin: false, isSuper: false };
    const item = visibleMenuItems({ ...agent, plan: { useInternalChat: true } }).find((i) => i.key === 'chats');
    expect(item?.to).toBe('/chats');
    expect(visibleMenuItems({ ...agent, plan: { useInternalChat: false } }).map((i) => i.key)).not.toContain('chats');
  });
});
