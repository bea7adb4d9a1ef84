import type { ChatDto, ChatMessageDto, ChatMessagesPage, ChatsPage, CreateChatRequest } from '@wa/contracts';
import { isNearEnd, type ScrollBox } from '../../app/scroll';

/** The cached pages of `GET /chats` (page 1 first: the most recently updated chats). */
export interface ChatPages {
  pages: ChatsPage[];
  pageParams: number[];
}

/** The cached pages of one chat's `GET /chats/{id}/messages`: page 1 holds the newest, each page oldest first. */
export interface ChatMessagePages {
  pages: ChatMessagesPage[];
  pageParams: number[];
}

/** spec 02 §9: the chat loads older messages when scrolled under 600 px from the top. */
export const OLDER_MESSAGES_TOP_PX = 600;
/** spec 02 §9: infinite lists load their next page within 100 px of the bottom. */
export const LIST_END_PX = 100;
/** Below this width the chat list and the messages are two tabs ('Chats', 'Mensagens'). */
export const CHATS_SPLIT_MIN_PX = 900;

/** The user's unread messages in a chat (their own entry of its members). */
export function unreadOf(chat: Pick<ChatDto, 'users'>, userId: number): number {
  return chat.users.find((u) => u.userId === userId)?.unreads ?? 0;
}

export function isChatMember(chat: Pick<ChatDto, 'users'>, userId: number): boolean {
  return chat.users.some((u) => u.userId === userId);
}

/** spec 02 §6: only the chat's owner edits and deletes it. */
export function isChatOwner(chat: Pick<ChatDto, 'ownerId'> | null | undefined, userId: number | null | undefined): boolean {
  return !!chat && userId !== null && userId !== undefined && chat.ownerId === userId;
}

/** Where a chat opens. */
export function chatPath(chat: Pick<ChatDto, 'uuid'>): string {
  return `/chats/${chat.uuid}`;
}

/** Whether the route's `:id` (a uuid, or the number) names this chat. */
export function isChatParam(chat: Pick<ChatDto, 'id' | 'uuid'>, param: string | null | undefined): boolean {
  return !!param && (param === chat.uuid || param === String(chat.id));
}

/** The chats of the loaded pages in order, each once (a chat that moved between pages while paging). */
export function flattenChats(data: ChatPages | undefined): ChatDto[] {
  if (!data) return [];
  const seen = new Set<number>();
  const out: ChatDto[] = [];
  for (const page of data.pages) {
    for (const chat of page.records) {
      if (seen.has(chat.id)) continue;
      seen.add(chat.id);
      out.push(chat);
    }
  }
  return out;
}

/** The chats where the user has unread messages (the top bar's popover), in list order. */
export function unreadChats(chats: readonly ChatDto[], userId: number): ChatDto[] {
  return chats.filter((c) => unreadOf(c, userId) > 0);
}

/** The user's unread messages over all the chats given. */
export function totalUnreads(chats: readonly ChatDto[], userId: number): number {
  return chats.reduce((sum, c) => sum + unreadOf(c, userId), 0);
}

/** The other members' names, for the pane's header. */
export function memberNames(chat: Pick<ChatDto, 'users'>, userId: number): string[] {
  return chat.users.filter((u) => u.userId !== userId).map((u) => u.user?.name ?? '');
}

/** The server's order: most recently updated first, then the newer chat (`updatedAt DESC, id DESC`). */
function comesBefore(a: Pick<ChatDto, 'id' | 'updatedAt'>, b: Pick<ChatDto, 'id' | 'updatedAt'>): boolean {
  const ta = Date.parse(a.updatedAt);
  const tb = Date.parse(b.updatedAt);
  return ta > tb || (ta === tb && a.id > b.id);
}

export function containsChat(data: ChatPages | undefined, chatId: number): boolean {
  return !!data?.pages.some((p) => p.records.some((c) => c.id === chatId));
}

function withCount(pages: ChatsPage[], delta: number): ChatsPage[] {
  return delta === 0 ? pages : pages.map((p) => ({ ...p, count: Math.max(0, p.count + delta) }));
}

/** A chat gone (deleted, or the user taken out of it): off the list. */
export function removeChat(data: ChatPages, chatId: number): ChatPages {
  if (!containsChat(data, chatId)) return data;
  const pages = data.pages.map((p) => ({ ...p, records: p.records.filter((c) => c.id !== chatId) }));
  return { ...data, pages: withCount(pages, -1) };
}

/**
 * A newer version of a chat (the socket's `update` and `new-message`, a save, a read): in its place by the
 * list's order (a new message takes it to the top), added when it is new to the list. A chat the user is no
 * longer in leaves the list; one older than every loaded chat, while more pages remain, waits for its page.
 */
export function upsertChat(data: ChatPages, chat: ChatDto, userId: number): ChatPages {
  if (!isChatMember(chat, userId)) return removeChat(data, chat.id);
  const present = containsChat(data, chat.id);
  const pages = data.pages.map((p) => ({ ...p, records: p.records.filter((c) => c.id !== chat.id) }));
  if (pages.length === 0) return { pages: [{ records: [chat], count: 1, hasMore: false }], pageParams: [1] };
  for (let i = 0; i < pages.length; i++) {
    const at = pages[i].records.findIndex((c) => comesBefore(chat, c));
    if (at < 0) continue;
    const records = [...pages[i].records.slice(0, at), chat, ...pages[i].records.slice(at)];
    pages[i] = { ...pages[i], records };
    return { ...data, pages: withCount(pages, present ? 0 : 1) };
  }
  const last = pages.length - 1;
  if (pages[last].hasMore) return { ...data, pages };
  pages[last] = { ...pages[last], records: [...pages[last].records, chat] };
  return { ...data, pages: withCount(pages, present ? 0 : 1) };
}

/** A chat with the message just sent: its last message, and updated now (the socket's version follows). */
export function chatWithMessage(chat: ChatDto, message: Pick<ChatMessageDto, 'message' | 'createdAt'>): ChatDto {
  return { ...chat, lastMessage: message.message, updatedAt: message.createdAt };
}

/** One chat's messages, oldest first, each once. */
export function orderedChatMessages(data: ChatMessagePages | undefined): ChatMessageDto[] {
  if (!data) return [];
  const byId = new Map<number, ChatMessageDto>();
  for (const page of data.pages) for (const m of page.records) if (!byId.has(m.id)) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/** A message sent or received: appended to the newest page, once. */
export function addChatMessage(data: ChatMessagePages, message: ChatMessageDto): ChatMessagePages {
  if (data.pages.some((p) => p.records.some((m) => m.id === message.id))) return data;
  if (data.pages.length === 0) return { pages: [{ records: [message], count: 1, hasMore: false }], pageParams: [1] };
  const [newest, ...older] = data.pages;
  return { ...data, pages: [{ ...newest, records: [...newest.records, message], count: newest.count + 1 }, ...older] };
}

/** spec 02 §5: empty or whitespace-only messages are not sent. */
export function isSendableChatMessage(text: string): boolean {
  return text.trim().length > 0;
}

/** What the input sends: the text without the spaces around it, or null when there is nothing to send. */
export function chatMessageBody(text: string): { message: string } | null {
  return isSendableChatMessage(text) ? { message: text.trim() } : null;
}

/** spec 02 §5: Enter sends; Shift+Enter (and Enter while composing an accented letter) writes a new line. */
export function isSendKey(e: { key: string; shiftKey: boolean; isComposing?: boolean }): boolean {
  return e.key === 'Enter' && !e.shiftKey && !e.isComposing;
}

/** spec 02 §9: the next page of chats within 100 px of the list's bottom. */
export function shouldLoadMoreChats(el: ScrollBox, hasMore: boolean, busy: boolean): boolean {
  return hasMore && !busy && isNearEnd(el, LIST_END_PX);
}

/** The chat dialog's form. */
export interface ChatFormValues {
  title: string;
  /** the members besides the user (the owner) */
  userIds: number[];
}

/** The form of a chat being edited (its title and the other members), or an empty one. */
export function chatFormOf(chat: Pick<ChatDto, 'title' | 'users'> | null, userId: number): ChatFormValues {
  if (!chat) return { title: '', userIds: [] };
  return { title: chat.title, userIds: chat.users.map((u) => u.userId).filter((id) => id !== userId) };
}

export type ChatFormProblem = 'title' | 'users';

/**
 * spec 02 §5 "Internal chat": the title is required ('Por favor, preencha o título da conversa.'), then at
 * least one user ('Por favor, selecione pelo menos um usuário.'). The first problem, or null.
 */
export function validateChatForm(values: ChatFormValues, userId: number): ChatFormProblem | null {
  if (!values.title.trim()) return 'title';
  if (!values.userIds.some((id) => id !== userId)) return 'users';
  return null;
}

/** `POST /chats` and `PUT /chats/{id}` bodies: the trimmed title and the members besides the user, each once. */
export function chatPayload(values: ChatFormValues, userId: number): CreateChatRequest {
  const ids = [...new Set(values.userIds)].filter((id) => id !== userId);
  return { title: values.title.trim(), users: ids.map((id) => ({ id })) };
}

/** Lower case without accents, to match names as people type them. */
function folded(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

/** The users the picker offers: the company's users but the user, matching the filter, by name. */
export function pickableUsers<T extends { id: number; name: string }>(users: readonly T[], userId: number, filter: string): T[] {
  const wanted = folded(filter.trim());
  return users
    .filter((u) => u.id !== userId && (!wanted || folded(u.name).includes(wanted)))
    .sort((a, b) => a.name.localeCompare(b.name, 'pt-BR', { sensitivity: 'base' }));
}

/** The badge of the top bar's chat button: nothing for none, "99+" past 99. */
export function unreadLabel(count: number): string | null {
  if (count <= 0) return null;
  return count > 99 ? '99+' : String(count);
}
