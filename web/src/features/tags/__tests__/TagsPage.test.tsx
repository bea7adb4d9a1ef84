import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, waitFor, within } from '@testing-library/react';
import type { UserDto } from '@wa/contracts';
import { sessionStarted } from '../../../app/session';
import { makeStore } from '../../../app/store';
import { renderWithProviders } from '../../../test/render';
import { ticketsApi } from '../../tickets/tickets.api';
import TagsPage from '../TagsPage';
import { aTag } from './a-tag';

const realFetch = globalThis.fetch;
let calls: Array<{ method: string; path: string; search: string; body: unknown }> = [];
let answer: (method: string, path: string) => { status: number; body: unknown } | undefined = () => undefined;

beforeEach(() => {
  calls = [];
  answer = () => undefined;
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    const url = new URL(req.url);
    const text = req.method === 'GET' ? '' : await req.clone().text();
    const sent = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
    calls.push({ method: req.method, path: url.pathname, search: url.search, body: sent });
    const custom = answer(req.method, url.pathname);
    if (custom)
      return new Response(JSON.stringify(custom.body), { status: custom.status, headers: { 'content-type': 'application/json' } });
    let body: unknown = {};
    if (url.pathname === '/tags' && req.method === 'GET') {
      body = {
        tags: [
          aTag(3, 'Cliente VIP', { color: '#F9A825', ticketsCount: 12, kanban: 1 }),
          aTag(4, 'Orçamento', { color: '#2E7D32', ticketsCount: 0 }),
        ],
        hasMore: false,
      };
    } else if (url.pathname === '/tags') body = { ...aTag(9, ''), ...sent };
    else if (url.pathname === '/tags/list') body = [aTag(3, 'Cliente VIP'), aTag(4, 'Orçamento')];
    else if (url.pathname.startsWith('/tags/'))
      body = req.method === 'DELETE' ? { message: 'Tag deleted' } : { ...aTag(Number(url.pathname.split('/')[2]), 'x'), ...sent };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
});

function aUser(profile: UserDto['profile'], extra: Partial<UserDto> = {}): UserDto {
  return {
    id: 1,
    name: 'Ana',
    email: 'ana@x.com',
    profile,
    companyId: 1,
    whatsappId: null,
    allTicket: 'enabled',
    super: false,
    online: true,
    queues: [],
    queueIds: [],
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    ...extra,
  };
}

function renderFor(user: UserDto) {
  const store = makeStore();
  store.dispatch(sessionStarted({ token: 'session-token', user }));
  return renderWithProviders(<TagsPage />, { store, route: '/tags' });
}

const writes = () => calls.filter((c) => c.method !== 'GET');

async function openAdd(r: ReturnType<typeof renderFor>) {
  fireEvent.click(await waitFor(() => r.getByTestId('tags-add')));
  return waitFor(() => r.getByTestId('tag-dialog'));
}

describe('/tags (spec 02 "Tags", §5, §6)', () => {
  it('lists the tags as coloured chips with their ticket counts and the kanban mark', async () => {
    const r = renderFor(aUser('user'));
    const vip = await waitFor(() => r.getByTestId('tag-row-3'));
    expect(r.getByTestId('tags-title').textContent).toContain('Tags');
    expect(r.getByTestId('tags-count').textContent).toBe('(2)');
    const chip = within(vip).getByTestId('tag-chip');
    expect(chip.textContent).toBe('Cliente VIP');
    expect(chip.style.background).toBe('rgb(249, 168, 37)');
    expect(within(vip).getByTestId('tag-tickets-cell').textContent).toBe('12');
    expect(within(vip).getByTestId('tag-kanban-cell').getAttribute('data-kanban')).toBe('yes');
    const other = r.getByTestId('tag-row-4');
    expect(within(other).getByTestId('tag-tickets-cell').textContent).toBe('0');
    expect(within(other).getByTestId('tag-kanban-cell').getAttribute('data-kanban')).toBe('no');
    expect(calls.find((c) => c.path === '/tags')?.search).toBe('?pageNumber=1');
    expect(r.getByText('Adicionar tag')).toBeTruthy();
  });

  it('the colour picker offers the palette of about 50 colours (spec 02 §9), each a swatch that picks it', async () => {
    const r = renderFor(aUser('user'));
    const dialog = await openAdd(r);
    const swatches = within(within(dialog).getByTestId('tag-palette')).getAllByRole('button');
    expect(swatches.length).toBeGreaterThanOrEqual(45);
    expect(swatches.length).toBeLessThanOrEqual(55);
    expect(new Set(swatches.map((b) => b.getAttribute('data-testid'))).size).toBe(swatches.length);
    fireEvent.click(within(dialog).getByTestId('tag-swatch-4A148C'));
    expect((within(dialog).getByTestId('tag-color') as HTMLInputElement).value).toBe('#4A148C');
  });

  it('adding sends POST /tags with the name, the colour and the kanban mark (admin)', async () => {
    const r = renderFor(aUser('admin'));
    const dialog = await openAdd(r);
    fireEvent.change(within(dialog).getByTestId('tag-name'), { target: { value: '  Proposta  ' } });
    fireEvent.click(within(dialog).getByTestId('tag-swatch-C62828'));
    expect((within(dialog).getByTestId('tag-color') as HTMLInputElement).value).toBe('#C62828');
    fireEvent.click(within(dialog).getByLabelText('Kanban'));
    await waitFor(() => expect(within(dialog).getByTestId('tag-kanban').getAttribute('data-state')).toBe('checked'));
    fireEvent.click(within(dialog).getByTestId('tag-save'));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toEqual({ method: 'POST', path: '/tags', search: '', body: { name: 'Proposta', color: '#C62828', kanban: 1 } });
    await waitFor(() => expect(r.queryByTestId('tag-dialog')).toBeNull());
    // the list is fetched again
    await waitFor(() => expect(calls.filter((c) => c.method === 'GET' && c.path === '/tags').length).toBeGreaterThan(1));
  });

  it('a name of 2 characters shows "Mensagem muito curta", an empty one "Obrigatório", and nothing is sent', async () => {
    const r = renderFor(aUser('admin'));
    const dialog = await openAdd(r);
    fireEvent.change(within(dialog).getByTestId('tag-name'), { target: { value: 'ab' } });
    fireEvent.click(within(dialog).getByTestId('tag-save'));
    await waitFor(() => expect(within(dialog).getByTestId('tag-name-error').textContent).toBe('Mensagem muito curta'));
    fireEvent.change(within(dialog).getByTestId('tag-name'), { target: { value: '   ' } });
    fireEvent.click(within(dialog).getByTestId('tag-save'));
    await waitFor(() => expect(within(dialog).getByTestId('tag-name-error').textContent).toBe('Obrigatório'));
    await new Promise((done) => setTimeout(done, 50));
    expect(writes()).toHaveLength(0);
    expect(r.getByTestId('tag-dialog')).toBeTruthy();
  });

  it.each([
    ['an admin', true, aUser('admin')],
    ['a supervisor', true, aUser('supervisor')],
    ['a super user', true, aUser('user', { super: true })],
    ['an agent', false, aUser('user')],
  ])('the Kanban switch, for %s: shown %s', async (_who, shown, user) => {
    const r = renderFor(user);
    const dialog = await openAdd(r);
    expect(within(dialog).getByTestId('tag-name')).toBeTruthy();
    expect(within(dialog).queryByTestId('tag-kanban') !== null).toBe(shown);
  });

  it("an agent's edit keeps the kanban mark out of the body (the server would refuse it)", async () => {
    const r = renderFor(aUser('user'));
    const row = await waitFor(() => r.getByTestId('tag-row-3'));
    fireEvent.click(within(row).getByTestId('tag-edit'));
    const dialog = await waitFor(() => r.getByTestId('tag-dialog'));
    expect((within(dialog).getByTestId('tag-name') as HTMLInputElement).value).toBe('Cliente VIP');
    expect((within(dialog).getByTestId('tag-color') as HTMLInputElement).value).toBe('#F9A825');
    fireEvent.change(within(dialog).getByTestId('tag-name'), { target: { value: 'Cliente Ouro' } });
    fireEvent.click(within(dialog).getByTestId('tag-save'));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toEqual({ method: 'PUT', path: '/tags/3', search: '', body: { name: 'Cliente Ouro', color: '#F9A825' } });
  });

  it("an admin's edit can take the kanban mark off", async () => {
    const r = renderFor(aUser('admin'));
    const row = await waitFor(() => r.getByTestId('tag-row-3'));
    fireEvent.click(within(row).getByTestId('tag-edit'));
    const dialog = await waitFor(() => r.getByTestId('tag-dialog'));
    expect((within(dialog).getByLabelText('Kanban') as HTMLInputElement).checked).toBe(true);
    fireEvent.click(within(dialog).getByLabelText('Kanban'));
    await waitFor(() => expect(within(dialog).getByTestId('tag-kanban').getAttribute('data-state')).toBe('unchecked'));
    fireEvent.click(within(dialog).getByTestId('tag-save'));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toMatchObject({ method: 'PUT', path: '/tags/3', body: { name: 'Cliente VIP', color: '#F9A825', kanban: 0 } });
  });

  it("shows the server's check on the name and keeps the dialog", async () => {
    answer = (method, path) =>
      method === 'POST' && path === '/tags'
        ? { status: 400, body: { error: 'ERR_VALIDATION', message: 'x', details: [{ field: 'name', messages: ['Tag já existe'] }] } }
        : undefined;
    const r = renderFor(aUser('admin'));
    const dialog = await openAdd(r);
    fireEvent.change(within(dialog).getByTestId('tag-name'), { target: { value: 'Cliente VIP' } });
    fireEvent.click(within(dialog).getByTestId('tag-save'));
    await waitFor(() => expect(within(dialog).getByText('Tag já existe')).toBeTruthy());
    expect(r.getByTestId('tag-dialog')).toBeTruthy();
  });

  it('a delete asks first, then sends DELETE /tags/{id}; the ticket filter list forgets the tag', async () => {
    const r = renderFor(aUser('admin'));
    // the ticket manager's tag filter, already loaded
    await r.store.dispatch(ticketsApi.endpoints.listTags.initiate());
    const row = await waitFor(() => r.getByTestId('tag-row-4'));
    fireEvent.click(within(row).getByTestId('tag-delete'));
    const confirm = await waitFor(() => r.getByTestId('confirm-dialog'));
    expect(confirm.textContent).toContain('Excluir Orçamento?');
    expect(writes()).toHaveLength(0);
    fireEvent.click(within(confirm).getByTestId('confirm-ok'));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toMatchObject({ method: 'DELETE', path: '/tags/4' });
    await waitFor(() =>
      expect(
        ticketsApi.endpoints.listTags
          .select()(r.store.getState())
          .data?.map((t) => t.id),
      ).toEqual([3]),
    );
  });

  it('offers the delete to admins and supervisors, not to agents (the server refuses theirs)', async () => {
    const agent = renderFor(aUser('user'));
    const row = await waitFor(() => agent.getByTestId('tag-row-4'));
    expect(within(row).getByTestId('tag-edit')).toBeTruthy();
    expect(within(row).queryByTestId('tag-delete')).toBeNull();
    agent.unmount();
    for (const profile of ['supervisor', 'admin'] as const) {
      const r = renderFor(aUser(profile));
      const allowed = await waitFor(() => r.getByTestId('tag-row-4'));
      expect(within(allowed).getByTestId('tag-delete')).toBeTruthy();
      r.unmount();
    }
  });
});
