import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, waitFor } from '@testing-library/react';
import type { UserDto } from '@wa/contracts';
import { loggedOut, sessionStarted } from '../../../app/session';
import { makeStore } from '../../../app/store';
import { aTicket } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { FakeSocket } from '../../../test/fake-socket';

let socket: FakeSocket | undefined;
jest.unstable_mockModule('socket.io-client', () => ({ io: () => (socket = new FakeSocket()) }));
const { RealtimeProvider } = await import('../../../realtime/RealtimeProvider');
const { ConnectionBanner } = await import('../ConnectionBanner');
const { useListTicketsInfiniteQuery } = await import('../../tickets/tickets.api');

const realFetch = globalThis.fetch;
let ticketRequests = 0;

beforeEach(() => {
  socket = undefined;
  ticketRequests = 0;
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const url = new URL((input as Request).url);
    if (url.pathname === '/tickets') ticketRequests++;
    const body = url.pathname === '/tickets' ? { tickets: [aTicket({ id: 1 })], hasMore: false, nextCursor: null } : {};
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** A screen with a ticket list, as the tickets page shows it. */
function PendingList() {
  const list = useListTicketsInfiniteQuery({ status: 'pending', showAll: false, queueIds: [] });
  return <div data-testid="list-loaded">{String(list.isSuccess)}</div>;
}

async function renderSignedIn() {
  const store = makeStore();
  store.dispatch(
    sessionStarted({ token: 't', user: { id: 7, name: 'Ana', companyId: 1, profile: 'user', queueIds: [] } as unknown as UserDto }),
  );
  const r = renderWithProviders(
    <RealtimeProvider>
      <ConnectionBanner />
      <PendingList />
    </RealtimeProvider>,
    { store },
  );
  await waitFor(() => expect(socket).toBeDefined());
  await waitFor(() => expect(r.getByTestId('list-loaded').textContent).toBe('true'));
  return { ...r, store, server: socket as FakeSocket };
}

describe('the offline banner (issue 45 §6)', () => {
  it('is not shown while the socket first connects, nor once it is connected', async () => {
    const r = await renderSignedIn();
    expect(r.queryByTestId('connection-banner')).toBeNull();
    act(() => r.server.fire('connect_error', new Error('xhr poll error')));
    expect(r.queryByTestId('connection-banner')).toBeNull();
    act(() => r.server.fire('connect'));
    expect(r.queryByTestId('connection-banner')).toBeNull();
  });

  it('says so after a drop, goes when the socket is back, and the lists load again', async () => {
    const r = await renderSignedIn();
    act(() => r.server.fire('connect'));
    await waitFor(() => expect(ticketRequests).toBe(2)); // the first connection loads the lists once more
    act(() => r.server.fire('disconnect', 'transport close'));
    const banner = r.getByTestId('connection-banner');
    expect(banner.textContent).toBe('Sem conexão com o servidor. Reconectando…');
    expect(banner.getAttribute('role')).toBe('status');
    expect(banner.getAttribute('aria-live')).toBe('polite');
    // still away while socket.io retries
    act(() => r.server.fire('connect_error', new Error('websocket error')));
    expect(r.queryByTestId('connection-banner')).toBeTruthy();
    expect(ticketRequests).toBe(2);

    act(() => r.server.fire('connect'));
    expect(r.queryByTestId('connection-banner')).toBeNull();
    await waitFor(() => expect(ticketRequests).toBe(3));
  });

  it('is not shown when the user signs out', async () => {
    const r = await renderSignedIn();
    act(() => r.server.fire('connect'));
    act(() => {
      r.store.dispatch(loggedOut('logout'));
    });
    expect(r.server.connected).toBe(false);
    expect(r.queryByTestId('connection-banner')).toBeNull();
  });
});
