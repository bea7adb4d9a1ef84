import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, waitFor, within } from '@testing-library/react';
import type { ContactListItemDto } from '@wa/contracts';
import { loadToaster } from '../../../app/notify';
import { clearSession, storeSession } from '../../../app/storage';
import { json, renderPage } from '../../campaigns/__tests__/harness';
import { contactListsSocket } from '../contact-lists.socket';
import ContactListItemsPage from '../ContactListItemsPage';

const realFetch = globalThis.fetch;
let calls: Array<{ method: string; path: string; search: string; body?: unknown }> = [];
let items: ContactListItemDto[] = [];

const anItem = (id: number, name: string, isWhatsappValid: boolean | null): ContactListItemDto => ({
  id,
  name,
  number: `55119999900${id}`,
  email: '',
  isWhatsappValid,
  contactListId: 2,
  companyId: 1,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
});

beforeEach(() => {
  calls = [];
  items = [anItem(1, 'Ana', true), anItem(2, 'Bruno', false), anItem(3, 'Carla', null)];
  storeSession('session-token');
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    const url = new URL(req.url);
    const multipart = (req.headers.get('content-type') ?? '').startsWith('multipart/form-data');
    const text = req.method === 'GET' || multipart ? '' : await req.clone().text();
    calls.push({ method: req.method, path: url.pathname, search: url.search, body: text ? JSON.parse(text) : undefined });
    if (url.pathname === '/contact-lists/2') return json({ id: 2, name: 'Clientes', contactsCount: items.length });
    if (url.pathname === '/contact-list-items' && req.method === 'GET') return json({ contacts: items, hasMore: false });
    if (url.pathname === '/contact-list-items' && req.method === 'POST') {
      const body = JSON.parse(text) as { name: string; number: string };
      const item = { ...anItem(10, body.name, null), number: body.number };
      items = [...items, item];
      return json(item);
    }
    if (url.pathname === '/contact-lists/2/upload') return json({ message: 'import started' });
    return json({});
  }) as unknown as typeof fetch;
});

afterEach(async () => {
  globalThis.fetch = realFetch;
  clearSession();
  (await loadToaster()).toaster.remove();
});

const render = () =>
  renderPage(<ContactListItemsPage />, {
    path: '/contact-lists/:contactListId/contacts',
    route: '/contact-lists/2/contacts',
    handlers: contactListsSocket,
  });

describe('/contact-lists/:id/contacts (spec 02 §2)', () => {
  it("shows each item's WhatsApp check: valid, invalid, not checked yet", async () => {
    const r = render();
    await waitFor(() => expect(r.getAllByTestId('contact-list-item-row')).toHaveLength(3));
    expect(r.getAllByTestId('contact-list-item-whatsapp').map((i) => i.getAttribute('data-state'))).toEqual([
      'valid',
      'invalid',
      'unchecked',
    ]);
    expect(calls.find((c) => c.path === '/contact-list-items')?.search).toContain('contactListId=2');
  });

  it('adds an item by hand, checking the number (Too Short!) and the email (Invalid email) first', async () => {
    const r = render();
    await waitFor(() => expect(r.getAllByTestId('contact-list-item-row')).toHaveLength(3));
    fireEvent.click(r.getByTestId('contact-list-items-add'));
    const dialog = await r.findByTestId('contact-list-item-dialog');
    fireEvent.change(within(dialog).getByTestId('contact-list-item-name'), { target: { value: 'Diego' } });
    fireEvent.change(within(dialog).getByTestId('contact-list-item-number'), { target: { value: '1234' } });
    fireEvent.change(within(dialog).getByTestId('contact-list-item-email'), { target: { value: 'diego@' } });
    fireEvent.click(within(dialog).getByTestId('contact-list-item-dialog-save'));
    await within(dialog).findByText('Too Short!');
    await within(dialog).findByText('Invalid email');
    fireEvent.change(within(dialog).getByTestId('contact-list-item-number'), { target: { value: '5511988887777' } });
    fireEvent.change(within(dialog).getByTestId('contact-list-item-email'), { target: { value: 'diego@loja.com' } });
    fireEvent.click(within(dialog).getByTestId('contact-list-item-dialog-save'));
    await waitFor(() => expect(r.queryByTestId('contact-list-item-dialog')).toBeNull());
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'Diego',
      number: '5511988887777',
      email: 'diego@loja.com',
      contactListId: 2,
    });
    await waitFor(() => expect(r.getAllByTestId('contact-list-item-row')).toHaveLength(4));
  });

  it("an import's live progress fills the bar and ends with the counts; the items reload then", async () => {
    const r = render();
    await waitFor(() => expect(r.getAllByTestId('contact-list-item-row')).toHaveLength(3));
    const progress = { contactListId: 2, processed: 40, total: 160, added: 30, duplicates: 5, invalid: 5, done: false };
    r.socket.fire('company-1-ContactList', { action: 'import', progress });
    const bar = await r.findByTestId('contact-list-import-progress');
    expect(bar.getAttribute('aria-valuenow')).toBe('25');
    expect(r.getByTestId('contact-list-import-counts').textContent).toBe('Importando: 40 de 160 linhas');
    const loads = calls.filter((c) => c.path === '/contact-list-items').length;
    r.socket.fire('company-1-ContactList', { action: 'import', progress: { ...progress, processed: 160, added: 150, done: true } });
    await waitFor(() => expect(r.getByTestId('contact-list-import-progress').getAttribute('aria-valuenow')).toBe('100'));
    expect(r.getByTestId('contact-list-import-counts').textContent).toBe(
      'Importação concluída: 150 adicionados, 5 duplicados, 5 inválidos',
    );
    await waitFor(() => expect(calls.filter((c) => c.path === '/contact-list-items').length).toBeGreaterThan(loads));
  });

  it('a live update of an item (its WhatsApp check answered) changes its icon without loading the list again', async () => {
    const r = render();
    await waitFor(() => expect(r.getAllByTestId('contact-list-item-row')).toHaveLength(3));
    const loads = calls.filter((c) => c.path === '/contact-list-items').length;
    r.socket.fire('company-1-ContactListItem', { action: 'update', record: { ...items[2], isWhatsappValid: true } });
    await waitFor(() => expect(r.getAllByTestId('contact-list-item-whatsapp')[2].getAttribute('data-state')).toBe('valid'));
    expect(calls.filter((c) => c.path === '/contact-list-items').length).toBe(loads);
  });

  it('a live update of an item the shown page does not hold yet (fetched before it) reloads the items, so the change shows', async () => {
    const r = render();
    await waitFor(() => expect(r.getAllByTestId('contact-list-item-row')).toHaveLength(3));
    // added and checked in the meantime: the page on screen predates both
    const added = { ...anItem(4, 'Davi', null) };
    items = [...items, { ...added, isWhatsappValid: true }];
    r.socket.fire('company-1-ContactListItem', { action: 'update', record: { ...added, isWhatsappValid: true } });
    await waitFor(() => expect(r.getAllByTestId('contact-list-item-row')).toHaveLength(4));
    expect(r.getAllByTestId('contact-list-item-whatsapp')[3].getAttribute('data-state')).toBe('valid');
  });
});
