import type { ChatDto, ChatMessageDto, PlanDto, UserDto } from '@wa/contracts';

/** The signed-in user of the chat tests: Ana (7). */
export const ME = 7;

export const NAMES: Record<number, string> = { 7: 'Ana', 8: 'Bruno', 9: 'Carla', 10: 'Davi' };

/** A chat; `unreads` maps a member's id to their unread count (members: the owner and `members`). */
export function aChat(id: number, overrides: Partial<ChatDto> & { members?: number[]; unreads?: Record<number, number> } = {}): ChatDto {
  const { members, unreads = {}, ...rest } = overrides;
  const ownerId = rest.ownerId ?? ME;
  const ids = [...new Set([ownerId, ...(members ?? [ME === ownerId ? 8 : ME])])];
  return {
    id,
    uuid: `${String(id).padStart(8, '0')}-0000-4000-8000-${String(id).padStart(12, '0')}`,
    title: `Conversa ${id}`,
    ownerId,
    lastMessage: `última ${id}`,
    createdAt: '2026-11-20T10:00:00.000Z',
    updatedAt: `2026-11-22T10:${String(60 - id).padStart(2, '0')}:00.000Z`,
    users: ids.map((userId) => ({ userId, unreads: unreads[userId] ?? 0, user: { id: userId, name: NAMES[userId] ?? `User ${userId}` } })),
    ...rest,
  };
}

export function aChatMessage(id: number, chatId: number, overrides: Partial<ChatMessageDto> = {}): ChatMessageDto {
  const senderId = overrides.senderId ?? 8;
  return {
    id,
    chatId,
    message: `mensagem ${id}`,
    senderId,
    sender: { id: senderId, name: NAMES[senderId] ?? `User ${senderId}` },
    createdAt: new Date(Date.UTC(2026, 10, 22, 9, 0, id)).toISOString(),
    ...overrides,
  };
}

/** Ana, an agent of company 1, with the plan flags given. */
export function aChatUser(plan: Partial<PlanDto>): UserDto {
  return {
    id: ME,
    name: 'Ana',
    email: 'ana@x.com',
    profile: 'user',
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
