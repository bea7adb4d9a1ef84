import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, waitFor } from '@testing-library/react';
import type { UserDto } from '@wa/contracts';
import { sessionStarted } from '../../../app/session';
import { makeStore } from '../../../app/store';
import { RealtimeContext } from '../../../realtime/RealtimeProvider';
import type { RealtimeClient } from '../../../realtime/realtime-client';
import { renderWithProviders } from '../../../test/render';
import { CUSTOMER_PRESENCE_SHOWN_MS, useAgentPresence, useCustomerPresence } from '../presence';

const realFetch = globalThis.fetch;
let calls: Array<{ path: string; body: unknown }>;
beforeEach(() => {
  calls = [];
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    calls.push({
      path: new URL(req.url).pathname,
      body: await req
        .clone()
        .json()
        .catch(() => null),
    });
    return new Response(null, { status: 204 });
  }) as unknown as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
  jest.useRealTimers();
});

/** A stand-in for the live socket, several listeners per channel: the test fires the server's events. */
function fakeSocket() {
  const handlers = new Map<string, Set<(p: unknown) => void>>();
  const client = {
    on: (channel: string, h: (p: unknown) => void) => {
      const set = handlers.get(channel) ?? new Set();
      handlers.set(channel, set);
      set.add(h);
      return () => set.delete(h);
    },
    join: () => () => undefined,
  } as unknown as RealtimeClient;
  return { client, fire: (channel: string, payload: unknown) => act(() => handlers.get(channel)?.forEach((h) => h(payload))) };
}

function signedIn() {
  const store = makeStore();
  store.dispatch(
    sessionStarted({ token: 't', user: { id: 7, name: 'Ana', companyId: 1, profile: 'user', queueIds: [10] } as unknown as UserDto }),
  );
  return store;
}

function CustomerPresence({ ticketId }: { ticketId: number }) {
  const presence = useCustomerPresence(ticketId);
  return <div data-testid="presence">{presence ?? 'none'}</div>;
}

describe("the customer's presence in the chat", () => {
  it('shows typing and recording for this ticket only, until they stop, their message arrives, or it grows old', async () => {
    jest.useFakeTimers({ advanceTimers: true });
    const socket = fakeSocket();
    const { getByTestId } = renderWithProviders(
      <RealtimeContext.Provider value={socket.client}>
        <CustomerPresence ticketId={5} />
      </RealtimeContext.Provider>,
      { store: signedIn() },
    );
    const shown = () => getByTestId('presence').textContent;
    expect(shown()).toBe('none');
    await socket.fire('company-1-presence', { ticketId: 6, state: 'composing' });
    expect(shown()).toBe('none');
    await socket.fire('company-1-presence', { ticketId: 5, state: 'composing' });
    expect(shown()).toBe('composing');
    await socket.fire('company-1-presence', { ticketId: 5, state: 'recording' });
    expect(shown()).toBe('recording');
    await socket.fire('company-1-presence', { ticketId: 5, state: 'paused' });
    expect(shown()).toBe('none');

    await socket.fire('company-1-presence', { ticketId: 5, state: 'composing' });
    // our own message does not end it; theirs does
    await socket.fire('company-1-appMessage', { action: 'create', message: { ticketId: 5, fromMe: true } });
    expect(shown()).toBe('composing');
    await socket.fire('company-1-appMessage', { action: 'create', message: { ticketId: 5, fromMe: false } });
    expect(shown()).toBe('none');

    await socket.fire('company-1-presence', { ticketId: 5, state: 'composing' });
    act(() => jest.advanceTimersByTime(CUSTOMER_PRESENCE_SHOWN_MS - 100));
    expect(shown()).toBe('composing');
    act(() => jest.advanceTimersByTime(200));
    expect(shown()).toBe('none');
  });
});

let agent: ReturnType<typeof useAgentPresence>;
function AgentPresence({ ticketId, enabled }: { ticketId: number; enabled: boolean }) {
  agent = useAgentPresence(ticketId, enabled);
  return null;
}

describe("the agent's presence", () => {
  it('tells the customer once however fast the agent types, then that they stopped; recording too; nothing when the chat is closed', async () => {
    const view = renderWithProviders(<AgentPresence ticketId={5} enabled />, { store: signedIn() });
    act(() => {
      agent.typing();
      agent.typing();
      agent.typing();
    });
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toEqual({ path: '/tickets/5/presence', body: { state: 'composing' } });
    act(() => agent.stopped());
    act(() => agent.stopped());
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1].body).toEqual({ state: 'paused' });
    act(() => agent.recording());
    await waitFor(() => expect(calls).toHaveLength(3));
    expect(calls[2].body).toEqual({ state: 'recording' });
    // leaving the chat while recording: the customer is told it stopped
    view.unmount();
    await waitFor(() => expect(calls).toHaveLength(4));
    expect(calls[3]).toEqual({ path: '/tickets/5/presence', body: { state: 'paused' } });

    calls = [];
    renderWithProviders(<AgentPresence ticketId={8} enabled={false} />, { store: signedIn() });
    act(() => {
      agent.typing();
      agent.recording();
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(calls).toHaveLength(0);
  });
});
