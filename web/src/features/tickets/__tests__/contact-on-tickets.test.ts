import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { ContactDto, TicketDto, UserDto } from '@wa/contracts';
import { sessionStarted } from '../../../app/session';
import { makeStore } from '../../../app/store';
import { aTicket } from '../../../test/fixtures';
import { flattenTickets, type TicketListArgs, type TicketPages } from '../ticket-list-rules';
import { ticketsApi } from '../tickets.api';
import { syncContactOnTickets } from '../tickets.socket';

/**
 * A contact's picture is fetched in the background after its first message (issue 42 §8): the contact.updated that
 * carries it reaches the ticket lists and the open chat's header in place, without a request.
 */
const realFetch = globalThis.fetch;
let requests = 0;
/** when set, the lists' answers wait until the test releases them (read before a change that comes meanwhile) */
let hold: Array<() => void> | null = null;
const tickets: TicketDto[] = [aTicket({ id: 1 }), aTicket({ id: 2 })];

beforeEach(() => {
  requests = 0;
  hold = null;
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    requests++;
    const url = new URL((input as Request).url);
    if (hold && url.pathname === '/tickets') await new Promise<void>((resolve) => hold?.push(resolve));
    const body = url.pathname.startsWith('/tickets/u/')
      ? tickets.find((t) => t.uuid === decodeURIComponent(url.pathname.slice('/tickets/u/'.length)))
      : { tickets, hasMore: false, nextCursor: null };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
});

const args: TicketListArgs = { status: 'pending', showAll: false, queueIds: [10] };

describe("a contact's new picture on the tickets that show it", () => {
  it('reaches the list and the chat header of its tickets only, without a request', async () => {
    const store = makeStore();
    store.dispatch(
      sessionStarted({ token: 't', user: { id: 7, companyId: 1, profile: 'user', name: 'Ana', queueIds: [10] } as unknown as UserDto }),
    );
    await store.dispatch(ticketsApi.endpoints.listTickets.initiate(args));
    await store.dispatch(ticketsApi.endpoints.ticketByUuid.initiate('uuid-2'));
    const before = requests;

    const contact = { ...aTicket({ id: 2 }).contact, companyId: 1, email: '', profilePicUrl: 'https://pps.whatsapp.net/v/t61/foto.jpg' };
    syncContactOnTickets(contact as ContactDto, store.getState(), store.dispatch);

    const listed = flattenTickets(ticketsApi.endpoints.listTickets.select(args)(store.getState()).data as TicketPages | undefined);
    expect(listed.map((t) => [t.id, t.contact.profilePicUrl])).toEqual([
      [1, ''],
      [2, 'https://pps.whatsapp.net/v/t61/foto.jpg'],
    ]);
    expect(ticketsApi.endpoints.ticketByUuid.select('uuid-2')(store.getState()).data?.contact.profilePicUrl).toBe(
      'https://pps.whatsapp.net/v/t61/foto.jpg',
    );
    expect(requests).toBe(before);
  });

  it('reaches a list whose answer was on its way, read before the change, once it lands', async () => {
    const store = makeStore();
    store.dispatch(
      sessionStarted({ token: 't', user: { id: 7, companyId: 1, profile: 'user', name: 'Ana', queueIds: [10] } as unknown as UserDto }),
    );
    hold = [];
    const loading = store.dispatch(ticketsApi.endpoints.listTickets.initiate(args));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(hold).toHaveLength(1);

    const contact = {
      ...aTicket({ id: 2 }).contact,
      companyId: 1,
      email: '',
      name: 'Maria Souza',
      profilePicUrl: 'https://pps.whatsapp.net/v/t61/foto.jpg',
    };
    syncContactOnTickets(contact as ContactDto, store.getState(), store.dispatch);
    hold.shift()?.();
    await loading;
    await new Promise((resolve) => setTimeout(resolve, 0));

    const listed = flattenTickets(ticketsApi.endpoints.listTickets.select(args)(store.getState()).data as TicketPages | undefined);
    expect(listed.map((t) => [t.id, t.contact.name, t.contact.profilePicUrl])).toEqual([
      [1, tickets[0]?.contact.name, ''],
      [2, 'Maria Souza', 'https://pps.whatsapp.net/v/t61/foto.jpg'],
    ]);
    loading.unsubscribe();
  });
});
