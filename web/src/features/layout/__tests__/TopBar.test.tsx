import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, waitFor, within } from '@testing-library/react';
import type { UserDto } from '@wa/contracts';
import { changeLanguage, currentLanguage } from '../../../app/i18n';
import { sessionStarted } from '../../../app/session';
import { makeStore } from '../../../app/store';
import { renderWithProviders } from '../../../test/render';
import { TopBar } from '../TopBar';

const realFetch = globalThis.fetch;
let calls: Array<{ method: string; path: string; body: unknown }> = [];

/** A date `days` days from now, as the company's dueDate. */
/** A date `days` ahead on the company's calendar (São Paulo, the default): a UTC date is a day ahead from 21:00 there. */
const inDays = (days: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date(Date.now() + days * 86_400_000));

const agent = (dueDate: string): UserDto =>
  ({
    id: 7,
    name: 'Ana',
    email: 'ana@x.com',
    profile: 'user',
    companyId: 1,
    whatsappId: null,
    allTicket: 'desabled',
    super: false,
    online: true,
    queues: [],
    queueIds: [],
    company: { id: 1, name: 'Acme', dueDate, settings: [] },
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
  }) as unknown as UserDto;

beforeEach(() => {
  calls = [];
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    const url = new URL(req.url);
    const text = req.method === 'GET' ? '' : await req.text();
    calls.push({ method: req.method, path: url.pathname, body: text ? JSON.parse(text) : undefined });
    let body: unknown = [];
    if (req.method === 'PUT' && url.pathname === '/users/7') body = { ...agent(inDays(30)), ...(JSON.parse(text) as object) };
    else if (url.pathname.startsWith('/announcements')) body = { records: [], count: 0, hasMore: false };
    else if (url.pathname.startsWith('/chats')) body = { records: [], count: 0, hasMore: false };
    else if (url.pathname === '/tickets') body = { tickets: [], count: 0, hasMore: false };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
});
afterEach(async () => {
  globalThis.fetch = realFetch;
  if (currentLanguage() !== 'pt') await changeLanguage('pt');
});

function renderAs(user: UserDto) {
  const store = makeStore();
  store.dispatch(sessionStarted({ token: 't', user }));
  return renderWithProviders(<TopBar onToggleMenu={() => undefined} wide />, { store });
}

describe('the top bar (spec 01 §2, §4)', () => {
  it('warns an agent too that the subscription ends in fewer than 5 days', async () => {
    const r = renderAs(agent(inDays(3)));
    const warning = await waitFor(() => r.getByTestId('expiry-warning'));
    expect(warning.textContent).toMatch(/Sua assinatura vence em [23] dia/);
    // the due date in the greeting stays an admin's
    expect(r.getByTestId('greeting').textContent).not.toContain('·');
  });

  it('shows no warning with more days left', () => {
    const r = renderAs(agent(inDays(20)));
    expect(r.queryByTestId('expiry-warning')).toBeNull();
  });

  it("the account menu's profile edits one's own name, password (with the current one) and language", async () => {
    const r = renderAs(agent(inDays(30)));
    fireEvent.click(r.getByTestId('account-menu'));
    fireEvent.click(await waitFor(() => r.getByTestId('profile')));
    const dialog = await waitFor(() => r.getByTestId('user-dialog'), { timeout: 5000 });
    expect(within(dialog).getByText('Meu perfil')).toBeTruthy();
    expect(within(dialog).queryByTestId('user-profile')).toBeNull();
    fireEvent.change(within(dialog).getByTestId('user-name'), { target: { value: 'Ana Lima' } });
    fireEvent.change(within(dialog).getByTestId('user-password'), { target: { value: 'Nova#Senha1' } });
    fireEvent.change(await waitFor(() => within(dialog).getByTestId('user-old-password')), { target: { value: 'Velha#Senha1' } });
    fireEvent.change(within(dialog).getByTestId('user-language'), { target: { value: 'en' } });
    fireEvent.click(within(dialog).getByTestId('user-save'));
    await waitFor(() => expect(r.queryByTestId('user-dialog')).toBeNull());
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.path).toBe('/users/7');
    expect(put?.body).toMatchObject({ name: 'Ana Lima', password: 'Nova#Senha1', oldPassword: 'Velha#Senha1' });
    expect(currentLanguage()).toBe('en');
    await waitFor(() => expect(r.getByTestId('greeting').textContent).toContain('Ana Lima'));
  });
});
