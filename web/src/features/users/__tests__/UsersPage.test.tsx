import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, waitFor, within } from '@testing-library/react';
import type { UserDto } from '@wa/contracts';
import { sessionStarted } from '../../../app/session';
import { makeStore } from '../../../app/store';
import { renderWithProviders } from '../../../test/render';
import UsersPage from '../UsersPage';

const realFetch = globalThis.fetch;
let calls: Array<{ method: string; path: string; search: string; body: unknown }> = [];
let answer: (method: string, path: string) => { status: number; body: unknown } | undefined = () => undefined;

function aUser(id: number, name: string, extra: Partial<UserDto> = {}): UserDto {
  return {
    id,
    name,
    email: `${name.toLowerCase()}@x.com`,
    profile: 'user',
    companyId: 1,
    whatsappId: null,
    allTicket: 'desabled',
    super: false,
    online: false,
    queues: [],
    queueIds: [],
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    ...extra,
  };
}

const admin = aUser(1, 'Admin', { profile: 'admin' });
const ana = aUser(2, 'Ana', { queues: [{ id: 10 }], queueIds: [10], whatsappId: 4 });

beforeEach(() => {
  calls = [];
  answer = () => undefined;
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    const url = new URL(req.url);
    const text = req.method === 'GET' ? '' : await req.clone().text();
    calls.push({ method: req.method, path: url.pathname, search: url.search, body: text ? JSON.parse(text) : undefined });
    const custom = answer(req.method, url.pathname);
    let body: unknown = {};
    if (custom)
      return new Response(JSON.stringify(custom.body), { status: custom.status, headers: { 'content-type': 'application/json' } });
    if (url.pathname === '/users')
      body =
        req.method === 'GET' ? { users: [admin, ana], count: 2, hasMore: false } : { ...aUser(9, 'Bia'), ...(JSON.parse(text) as object) };
    else if (url.pathname.startsWith('/users/')) body = { ...ana, ...(JSON.parse(text || '{}') as object) };
    else if (url.pathname === '/queue')
      body = [
        { id: 10, name: 'Vendas', color: '#f00' },
        { id: 11, name: 'Suporte', color: '#00f' },
      ];
    else if (url.pathname === '/whatsapp') body = [{ id: 4, name: 'Loja' }];
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
});

function renderAs(user: UserDto) {
  const store = makeStore();
  store.dispatch(sessionStarted({ token: 't', user }));
  return renderWithProviders(<UsersPage />, { store, route: '/users' });
}

const writes = () => calls.filter((c) => c.method !== 'GET');

describe('users page (spec 01 §2, spec 02 §2)', () => {
  it('lists users with their profile and queue names; an admin adds, edits and deletes', async () => {
    const r = renderAs(admin);
    const rows = await waitFor(() => {
      const found = r.getAllByTestId('user-row');
      expect(found).toHaveLength(2);
      return found;
    });
    expect(rows[1].getAttribute('data-user-id')).toBe('2');
    await waitFor(() => expect(within(rows[1]).getByText('Vendas')).toBeTruthy());
    expect(within(rows[0]).getByText('Administrador')).toBeTruthy();
    expect(r.getByTestId('users-add')).toBeTruthy();
    // not oneself
    expect(within(rows[0]).queryByTestId('user-delete')).toBeNull();
    expect(within(rows[1]).getByTestId('user-delete')).toBeTruthy();
  });

  it("an admin's dialog has every field, and a new user is sent whole", async () => {
    const r = renderAs(admin);
    fireEvent.click(await waitFor(() => r.getByTestId('users-add')));
    const dialog = await waitFor(() => r.getByTestId('user-dialog'));
    for (const id of ['user-name', 'user-email', 'user-password', 'user-profile', 'user-queues', 'user-allticket', 'user-whatsapp'])
      expect(within(dialog).getByTestId(id)).toBeTruthy();
    fireEvent.click(within(dialog).getByTestId('user-save'));
    await waitFor(() => expect(within(dialog).getAllByText('Required')).toHaveLength(3));
    fireEvent.change(within(dialog).getByTestId('user-name'), { target: { value: 'Bia' } });
    fireEvent.change(within(dialog).getByTestId('user-email'), { target: { value: 'bia' } });
    fireEvent.change(within(dialog).getByTestId('user-password'), { target: { value: '123' } });
    expect(within(dialog).getByText('Invalid email')).toBeTruthy();
    expect(within(dialog).getByText('Too Short!')).toBeTruthy();
    fireEvent.change(within(dialog).getByTestId('user-email'), { target: { value: 'bia@x.com' } });
    fireEvent.change(within(dialog).getByTestId('user-password'), { target: { value: 'secret1' } });
    fireEvent.change(within(dialog).getByTestId('user-profile'), { target: { value: 'admin' } });
    fireEvent.change(within(dialog).getByTestId('user-allticket'), { target: { value: 'enabled' } });
    await waitFor(() => expect(within(dialog).getByText('Suporte')).toBeTruthy());
    fireEvent.click(within(dialog).getByText('Suporte'));
    await waitFor(() => expect(within(dialog).getByText('Loja')).toBeTruthy());
    fireEvent.change(within(dialog).getByTestId('user-whatsapp'), { target: { value: '4' } });
    fireEvent.click(within(dialog).getByTestId('user-save'));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toEqual({
      method: 'POST',
      path: '/users',
      search: '',
      body: { name: 'Bia', email: 'bia@x.com', password: 'secret1', profile: 'admin', allTicket: 'enabled', whatsappId: 4, queueIds: [11] },
    });
    // the list takes the new user in name order
    await waitFor(() => expect(r.getAllByTestId('user-row').map((row) => row.getAttribute('data-user-id'))).toEqual(['1', '2', '9']));
  });

  it('an edit keeps a blank password out; a taken email shows under the field', async () => {
    answer = (method, path) =>
      method === 'PUT' && path === '/users/2' ? { status: 409, body: { error: 'ERR_EMAIL_ALREADY_EXISTS' } } : undefined;
    const r = renderAs(admin);
    const rows = await waitFor(() => r.getAllByTestId('user-row'));
    fireEvent.click(within(rows[1]).getByTestId('user-edit'));
    const dialog = await waitFor(() => r.getByTestId('user-dialog'));
    expect((within(dialog).getByTestId('user-email') as HTMLInputElement).value).toBe('ana@x.com');
    fireEvent.change(within(dialog).getByTestId('user-email'), { target: { value: 'admin@x.com' } });
    fireEvent.click(within(dialog).getByTestId('user-save'));
    await waitFor(() => expect(within(dialog).getByText('Já existe um usuário com este email.')).toBeTruthy());
    expect(writes()[0]).toMatchObject({
      method: 'PUT',
      path: '/users/2',
      body: { name: 'Ana', email: 'admin@x.com', profile: 'user', allTicket: 'desabled', whatsappId: 4, queueIds: [10] },
    });
    expect(writes()[0].body).not.toHaveProperty('password');
  });

  it('an agent sees the list, adds and deletes nothing, and edits only their own name and password', async () => {
    const me = aUser(2, 'Ana');
    const r = renderAs(me);
    const rows = await waitFor(() => {
      const found = r.getAllByTestId('user-row');
      expect(found).toHaveLength(2);
      return found;
    });
    expect(r.queryByTestId('users-add')).toBeNull();
    expect(r.queryByTestId('user-delete')).toBeNull();
    expect(within(rows[0]).queryByTestId('user-edit')).toBeNull();
    fireEvent.click(within(rows[1]).getByTestId('user-edit'));
    const dialog = await waitFor(() => r.getByTestId('user-dialog'));
    for (const id of ['user-profile', 'user-queues', 'user-allticket', 'user-whatsapp'])
      expect(within(dialog).queryByTestId(id)).toBeNull();
    expect((within(dialog).getByTestId('user-email') as HTMLInputElement).disabled).toBe(true);
    fireEvent.change(within(dialog).getByTestId('user-password'), { target: { value: 'newpass' } });
    fireEvent.click(within(dialog).getByTestId('user-save'));
    await waitFor(() => expect(within(dialog).getByText('Required')).toBeTruthy());
    fireEvent.change(within(dialog).getByTestId('user-old-password'), { target: { value: 'oldpass' } });
    fireEvent.click(within(dialog).getByTestId('user-save'));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toEqual({
      method: 'PUT',
      path: '/users/2',
      search: '',
      body: { name: 'Ana', password: 'newpass', oldPassword: 'oldpass' },
    });
    expect(calls.some((c) => c.path === '/whatsapp')).toBe(false);
  });

  it('searches after a pause', async () => {
    const r = renderAs(admin);
    await waitFor(() => expect(r.getAllByTestId('user-row')).toHaveLength(2));
    fireEvent.change(r.getByTestId('users-search'), { target: { value: 'an' } });
    await waitFor(() => expect(calls.some((c) => c.path === '/users' && c.search === '?searchParam=an&pageNumber=1')).toBe(true), {
      timeout: 2000,
    });
  });
});
