import type { MessageDto, ScheduleDto, TicketDto } from '@wa/contracts';

export function aTicket(overrides: Partial<TicketDto> = {}): TicketDto {
  const id = overrides.id ?? 1;
  return {
    id,
    uuid: `uuid-${id}`,
    companyId: 1,
    status: 'pending',
    userId: null,
    user: null,
    queueId: 10,
    queue: { id: 10, name: 'Atendimento', color: '#2e7d32' },
    whatsappId: 1,
    whatsapp: { id: 1, name: 'Sandbox' },
    contactId: 100 + id,
    contact: { id: 100 + id, name: `Contato ${id}`, number: `55119999900${id}`, profilePicUrl: '' },
    tags: [],
    lastMessage: 'Olá',
    unreadMessages: 1,
    isGroup: false,
    chatbot: false,
    useIntegration: false,
    promptId: null,
    integrationId: null,
    createdAt: '2026-11-22T10:00:00.000Z',
    updatedAt: '2026-11-22T10:00:00.000Z',
    ...overrides,
  };
}

export function aMessage(overrides: Partial<MessageDto> = {}): MessageDto {
  const id = overrides.id ?? 1;
  return {
    id,
    wid: `wid-${id}`,
    ticketId: 1,
    companyId: 1,
    contactId: null,
    body: `mensagem ${id}`,
    fromMe: true,
    mediaType: 'chat',
    mediaUrl: null,
    quotedMsgId: null,
    ack: 0,
    read: true,
    isDeleted: false,
    isEdited: false,
    createdAt: '2026-11-22T10:00:00.000Z',
    updatedAt: '2026-11-22T10:00:00.000Z',
    ...overrides,
  };
}

export function aSchedule(overrides: Partial<ScheduleDto> = {}): ScheduleDto {
  const id = overrides.id ?? 1;
  return {
    id,
    body: `mensagem ${id}`,
    contactId: 100 + id,
    contact: { id: 100 + id, name: `Contato ${id}`, number: `55119999900${id}` },
    sendAt: '2026-11-24T18:00:00.000Z',
    sentAt: null,
    status: 'PENDENTE',
    reason: null,
    ticketId: null,
    mediaPath: null,
    mediaName: null,
    userId: 7,
    companyId: 1,
    createdAt: '2026-11-22T10:00:00.000Z',
    updatedAt: '2026-11-22T10:00:00.000Z',
    ...overrides,
  };
}

/** The server's answer to GET /tickets: a first page holding these tickets (open, no more pages). */
export function aTicketListResponse(ids: number[]): Response {
  return new Response(
    JSON.stringify({ tickets: ids.map((id) => ({ id, uuid: `u${id}`, status: 'open' })), hasMore: false, nextCursor: null }),
    {
      status: 200,
      headers: { 'content-type': 'application/json' },
    },
  );
}
