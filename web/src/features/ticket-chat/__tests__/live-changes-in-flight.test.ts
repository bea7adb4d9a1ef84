import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { MessagesPage, TicketDto, UserDto } from '@wa/contracts';
import { sessionStarted } from '../../../app/session';
import { makeStore } from '../../../app/store';
import { aMessage, aTicket } from '../../../test/fixtures';
import { chatApi } from '../chat.api';
import type { MessagePages } from '../message-rules';
import { syncMessageEvent } from '../ticket-chat.socket';
import { flattenTickets, type TicketListArgs, type TicketPages } from '../../tickets/ticket-list-rules';
import { ticketsApi } from '../../tickets/tickets.api';

/**
 * spec 01 §4 "Live updates": a change that comes while a list's request is on its way is not undone when the answer,
 * read before it, lands — here the list's next page, and a chat's messages as the chat opens.
 */
const realFetch = globalThis.fetch;
const waiting: Array<() => void> = [];

beforeEach(() => {
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const url = new URL((input as Request).url);
    if (url.pathname.endsWith('/messages/9')) {
      // the chat's messages, read before the customer's new one was stored; answered when the test says
      await new Promise<void>((resolve) => waiting.push(resolve));
      const page: MessagesPage = {
        messages: [aMessage({ id: 800, ticketId: 9, body: 'oi', fromMe: false })],
        hasMore: false,
        nextCursor: null,
      };
      return new Response(JSON.stringify(page), { status: 200, headers: { 'content-type': 'application/json' } });
    }
    const second = url.searchParams.get('cursor') === 'c2';
    const body = second
      ? { tickets: [aTicket({ id: 3 }), aTicket({ id: 4 })], hasMore: false, nextCursor: null }
      : { tickets: [aTicket({ id: 1 }), aTicket({ id: 2 })], hasMore: true, nextCursor: 'c2' };
    if (second) await new Promise<void>((resolve) => waiting.push(resolve));
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
});

const args: TicketListArgs = { status: 'pending', showAll: false, queueIds: [] };

describe('a live change while a ticket list’s request is on its way', () => {
  it('a new customer’s ticket that comes while the next page loads stays at the top once the page lands', async () => {
    const store = makeStore();
    store.dispatch(
      sessionStarted({ token: 't', user: { id: 7, companyId: 1, profile: 'user', name: 'Ana', queueIds: [10] } as unknown as UserDto }),
    );
    const shown = () =>
      flattenTickets(ticketsApi.endpoints.listTickets.select(args)(store.getState()).data as TicketPages | undefined).map((t) => t.id);
    await store.dispatch(ticketsApi.endpoints.listTickets.initiate(args));
    expect(shown()).toEqual([1, 2]);

    const next = store.dispatch(ticketsApi.endpoints.listTickets.initiate(args, { direction: 'forward' }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(waiting).toHaveLength(1);
    const ticket: TicketDto = aTicket({ id: 9, lastMessage: 'olá, alguém aí?' });
    syncMessageEvent(
      { action: 'create', message: aMessage({ id: 900, ticketId: 9, fromMe: false }), ticket, contact: ticket.contact },
      store.getState(),
      store.dispatch,
    );
    expect(shown()).toEqual([9, 1, 2]);

    waiting.shift()?.();
    await next;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(shown()).toEqual([9, 1, 2, 3, 4]);
  });

  it('a customer’s message (and its later change) that comes while the chat’s messages load is in the chat once they land', async () => {
    const store = makeStore();
    store.dispatch(
      sessionStarted({ token: 't', user: { id: 7, companyId: 1, profile: 'user', name: 'Ana', queueIds: [10] } as unknown as UserDto }),
    );
    const chat = () =>
      (chatApi.endpoints.messages.select(9)(store.getState()).data as MessagePages | undefined)?.pages.flatMap((p) =>
        p.messages.map((m) => `${m.id}:${m.body}`),
      );
    const opening = store.dispatch(chatApi.endpoints.messages.initiate(9));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(waiting).toHaveLength(1);
    const ticket: TicketDto = aTicket({ id: 9, lastMessage: 'tem alguém aí?' });
    const message = aMessage({ id: 801, ticketId: 9, body: 'tem alguém aí?', fromMe: false });
    syncMessageEvent({ action: 'create', message, ticket, contact: ticket.contact }, store.getState(), store.dispatch);
    syncMessageEvent(
      { action: 'update', message: { ...message, body: 'tem alguém aí??' }, ticket, contact: ticket.contact },
      store.getState(),
      store.dispatch,
    );

    waiting.shift()?.();
    await opening;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(chat()).toEqual(['800:oi', '801:tem alguém aí??']);
    opening.unsubscribe();
  });
});
