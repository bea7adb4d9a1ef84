import { jest } from '@jest/globals';
import { act } from '@testing-library/react';
import type { ChatDto, ChatMessageDto } from '@wa/contracts';
import type { RealtimeClient } from '../../../realtime/realtime-client';
import { aChat, aChatMessage, ME, NAMES } from './a-chat';

export interface Call {
  method: string;
  path: string;
  search: URLSearchParams;
  body: Record<string, unknown> | undefined;
}

/**
 * The server's chats as the tests set them up, answered as the tickets service does: 20 chats a page, most
 * recently updated first; 30 messages a page, page 1 the newest, each page oldest first; only members see a
 * chat. `fail` makes a request answer 500.
 */
export class FakeChatServer {
  calls: Call[] = [];
  chats: ChatDto[] = [];
  messages = new Map<number, ChatMessageDto[]>();
  users = Object.entries(NAMES).map(([id, name]) => ({ id: Number(id), name }));
  fail: ((method: string, path: string) => boolean) | null = null;
  private nextId = 1000;

  writes(): string[] {
    return this.calls.filter((c) => c.method !== 'GET').map((c) => `${c.method} ${c.path}`);
  }

  find(idOrUuid: string): ChatDto | undefined {
    return this.chats.find((c) => (c.uuid === idOrUuid || String(c.id) === idOrUuid) && c.users.some((u) => u.userId === ME));
  }

  private member(userId: number, unreads = 0) {
    return { userId, unreads, user: { id: userId, name: NAMES[userId] ?? `User ${userId}` } };
  }

  private save(chat: ChatDto): ChatDto {
    this.chats = [chat, ...this.chats.filter((c) => c.id !== chat.id)].sort(
      (a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt) || b.id - a.id,
    );
    return chat;
  }

  /** A message from someone else, as the server stores it (the chat's last message, the others' unread counts). */
  receive(chatId: number, senderId: number, text: string): { chat: ChatDto; message: ChatMessageDto } {
    const message = aChatMessage(this.nextId++, chatId, {
      senderId,
      message: text,
      createdAt: new Date(Date.UTC(2026, 10, 22, 13, 0, this.nextId % 60)).toISOString(),
    });
    this.messages.set(chatId, [...(this.messages.get(chatId) ?? []), message]);
    const chat = this.chats.find((c) => c.id === chatId) ?? aChat(chatId);
    const fresh = {
      ...chat,
      lastMessage: text,
      updatedAt: message.createdAt,
      users: chat.users.map((u) => (u.userId === senderId ? u : { ...u, unreads: u.unreads + 1 })),
    };
    return { chat: this.save(fresh), message };
  }

  handler = async (input: RequestInfo | URL): Promise<Response> => {
    const req = input as Request;
    const url = new URL(req.url);
    const text = req.method === 'GET' ? '' : await req.clone().text();
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
    this.calls.push({ method: req.method, path: url.pathname, search: url.searchParams, body });
    const json = (answer: unknown, status = 200) =>
      new Response(JSON.stringify(answer), { status, headers: { 'content-type': 'application/json' } });
    if (this.fail?.(req.method, url.pathname)) return json({ error: 'ERR_INTERNAL', message: 'boom' }, 500);
    const page = Number(url.searchParams.get('pageNumber') ?? '1');

    if (url.pathname === '/users/list') return json(this.users);
    if (url.pathname === '/chats' && req.method === 'GET') {
      const mine = this.chats.filter((c) => c.users.some((u) => u.userId === ME));
      return json({ records: mine.slice((page - 1) * 20, page * 20), count: mine.length, hasMore: page * 20 < mine.length });
    }
    if (url.pathname === '/chats' && req.method === 'POST') {
      const users = (body?.users as Array<{ id: number }>) ?? [];
      const id = this.nextId++;
      const chat = aChat(id, { title: String(body?.title ?? ''), lastMessage: '', updatedAt: '2026-11-22T14:00:00.000Z' });
      return json(this.save({ ...chat, users: [this.member(ME), ...users.map((u) => this.member(u.id))] }));
    }
    const m = /^\/chats\/([^/]+)(?:\/(read|messages))?$/.exec(url.pathname);
    const chat = m ? this.find(decodeURIComponent(m[1])) : undefined;
    if (!m || !chat) return json({ error: 'ERR_NOT_FOUND', message: 'Chat not found.' }, 404);
    if (m[2] === 'read') return json(this.save({ ...chat, users: chat.users.map((u) => (u.userId === ME ? { ...u, unreads: 0 } : u)) }));
    if (m[2] === 'messages' && req.method === 'GET') {
      const all = this.messages.get(chat.id) ?? [];
      const end = all.length - (page - 1) * 30;
      return json({ records: all.slice(Math.max(0, end - 30), Math.max(0, end)), count: all.length, hasMore: end - 30 > 0 });
    }
    if (m[2] === 'messages') {
      const message = aChatMessage(this.nextId++, chat.id, {
        senderId: ME,
        message: String(body?.message ?? '').trim(),
        createdAt: '2026-11-22T14:30:00.000Z',
      });
      this.messages.set(chat.id, [...(this.messages.get(chat.id) ?? []), message]);
      this.save({ ...chat, lastMessage: message.message, updatedAt: message.createdAt });
      return json(message);
    }
    if (req.method === 'PUT') {
      const users = body?.users as Array<{ id: number }> | undefined;
      const next = {
        ...chat,
        title: typeof body?.title === 'string' ? body.title : chat.title,
        users: users ? [this.member(ME), ...users.map((u) => this.member(u.id))] : chat.users,
      };
      return json(this.save(next));
    }
    if (req.method === 'DELETE') {
      this.chats = this.chats.filter((c) => c.id !== chat.id);
      return json({ message: 'Chat deleted' });
    }
    return json(chat);
  };

  install(): () => void {
    const real = globalThis.fetch;
    globalThis.fetch = jest.fn(this.handler) as unknown as typeof fetch;
    return () => {
      globalThis.fetch = real;
    };
  }
}

/** A stand-in for the live socket: the test fires the server's events. */
export function fakeSocket() {
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
