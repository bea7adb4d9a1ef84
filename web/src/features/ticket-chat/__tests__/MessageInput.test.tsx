import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, waitFor } from '@testing-library/react';
import type { UserDto } from '@wa/contracts';
import { sessionStarted } from '../../../app/session';
import { aMessage } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { MessageInput } from '../MessageInput';

const realFetch = globalThis.fetch;
let posts: Array<{ url: string; body: unknown }> = [];
/** what the customer was told of the agent's typing (POST /tickets/12/presence), apart from the sends */
let presences: unknown[] = [];

beforeEach(() => {
  posts = [];
  presences = [];
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    if (req.url.endsWith('/tickets/12/presence')) {
      presences.push(await req.clone().json());
      return new Response(null, { status: 204 });
    }
    posts.push({ url: req.url, body: await req.clone().json() });
    return new Response(JSON.stringify(aMessage({ id: posts.length + 100 })), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  }) as unknown as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
});

function setup() {
  const r = renderWithProviders(<MessageInput ticketId={12} disabled={false} />);
  act(() => {
    r.store.dispatch(sessionStarted({ token: 't', user: { id: 1, name: 'Ana', companyId: 1, profile: 'user' } as UserDto }));
  });
  return { ...r, textarea: r.getByTestId('message-textarea') as HTMLTextAreaElement };
}

describe('message input', () => {
  it('sends on Enter, signed with the agent’s name by default', async () => {
    const { textarea } = setup();
    fireEvent.change(textarea, { target: { value: 'Bom dia' } });
    fireEvent.keyDown(textarea, { key: 'Enter' });
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0].url).toMatch(/\/messages\/12$/);
    expect(posts[0].body).toMatchObject({ body: '*Ana:*\nBom dia' });
    await waitFor(() => expect(textarea.value).toBe(''));
    // the customer saw "digitando…" while the agent typed, and its end when the message went
    expect(presences).toEqual([{ state: 'composing' }, { state: 'paused' }]);
  });

  it('does not send on Shift+Enter (a new line)', async () => {
    const { textarea } = setup();
    fireEvent.change(textarea, { target: { value: 'linha 1' } });
    fireEvent.keyDown(textarea, { key: 'Enter', shiftKey: true });
    await new Promise((r) => setTimeout(r, 50));
    expect(posts).toHaveLength(0);
  });

  it('does not send whitespace-only text', async () => {
    const { textarea } = setup();
    fireEvent.change(textarea, { target: { value: '   \n ' } });
    fireEvent.keyDown(textarea, { key: 'Enter' });
    await new Promise((r) => setTimeout(r, 50));
    expect(posts).toHaveLength(0);
  });

  it('sends without the signature when the sign option is off', async () => {
    const { textarea, getByTestId } = setup();
    const sign = getByTestId('sign-switch').querySelector('input') as HTMLInputElement;
    expect(sign.checked).toBe(true);
    fireEvent.click(sign);
    await waitFor(() => expect(sign.checked).toBe(false));
    fireEvent.change(textarea, { target: { value: 'Sem assinatura' } });
    fireEvent.keyDown(textarea, { key: 'Enter' });
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0].body).toMatchObject({ body: 'Sem assinatura' });
  });
});
