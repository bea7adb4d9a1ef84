import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, waitFor, within } from '@testing-library/react';
import type { ContactDto, UserDto } from '@wa/contracts';
import { sessionStarted } from '../../../app/session';
import { makeStore } from '../../../app/store';
import { renderWithProviders } from '../../../test/render';
import { changeContactLists } from '../contacts.api';
import ContactsPage from '../ContactsPage';

const realFetch = globalThis.fetch;
let loads: URLSearchParams[] = [];
let posts: unknown[] = [];

const aContact = (id: number, name: string): ContactDto =>
  ({ id, name, number: `55119${id}`, email: '', extraInfo: [], isGroup: false }) as unknown as ContactDto;
const agent = {
  id: 7,
  name: 'Ana',
  profile: 'user',
  companyId: 1,
  queueIds: [],
  company: { id: 1, name: 'Acme', settings: [] },
} as unknown as UserDto;

beforeEach(() => {
  loads = [];
  posts = [];
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    const url = new URL(req.url);
    if (req.method === 'POST' && url.pathname === '/contacts') {
      const sent = (await req.json()) as ContactDto;
      posts.push(sent);
      return new Response(JSON.stringify({ ...aContact(9, sent.name), ...sent }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }
    if (url.pathname === '/contacts') loads.push(url.searchParams);
    const filtered = url.searchParams.has('dateStart') || url.searchParams.has('dateEnd');
    const body = {
      contacts: filtered ? [aContact(2, 'Bia')] : [aContact(1, 'Ana'), aContact(2, 'Bia')],
      count: filtered ? 1 : 2,
      hasMore: false,
    };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
});

describe('/contacts: the days of creation (GET /contacts dateStart, dateEnd)', () => {
  it('asks the server for the contacts created between the days chosen', async () => {
    const store = makeStore();
    store.dispatch(sessionStarted({ token: 't', user: agent }));
    const r = renderWithProviders(<ContactsPage />, { store, route: '/contacts' });
    await waitFor(() => expect(r.getByTestId('contacts-count').textContent).toBe('(2)'));
    expect(loads[0]?.has('dateStart')).toBe(false);

    fireEvent.change(r.getByTestId('contacts-date-start'), { target: { value: '2026-11-01' } });
    fireEvent.change(r.getByTestId('contacts-date-end'), { target: { value: '2026-11-30' } });
    await waitFor(() => expect(r.getByTestId('contacts-count').textContent).toBe('(1)'));
    const last = loads.at(-1);
    expect(last?.get('dateStart')).toBe('2026-11-01');
    expect(last?.get('dateEnd')).toBe('2026-11-30');
    expect(last?.get('pageNumber')).toBe('1');

    // a new contact joins only the unfiltered list, not the one filtered by days
    changeContactLists(store.getState(), store.dispatch, { contact: aContact(3, 'Caio') });
    expect(r.getByTestId('contacts-count').textContent).toBe('(1)');
  });

  it("the contact dialog shows a field's rule once the form is sent, then saves the trimmed contact", async () => {
    const store = makeStore();
    store.dispatch(sessionStarted({ token: 't', user: agent }));
    const r = renderWithProviders(<ContactsPage />, { store, route: '/contacts' });
    fireEvent.click(await waitFor(() => r.getByTestId('contact-add')));
    const dialog = await waitFor(() => r.getByTestId('contact-dialog'));
    expect(within(dialog).queryByText('Required')).toBeNull();
    fireEvent.submit(within(dialog).getByTestId('contact-name').closest('form') as HTMLFormElement);
    await waitFor(() => expect(within(dialog).getAllByText('Required').length).toBeGreaterThan(0));
    expect(posts).toEqual([]);
    fireEvent.change(within(dialog).getByTestId('contact-name'), { target: { value: '  Caio ' } });
    fireEvent.change(within(dialog).getByTestId('contact-number'), { target: { value: ' 5511988887777 ' } });
    fireEvent.submit(within(dialog).getByTestId('contact-name').closest('form') as HTMLFormElement);
    await waitFor(() => expect(r.queryByTestId('contact-dialog')).toBeNull());
    expect(posts).toEqual([{ name: 'Caio', number: '5511988887777', email: '', extraInfo: [] }]);
  });
});
