import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, waitFor, within } from '@testing-library/react';
import type { HelpDto, SettingDto, UserDto } from '@wa/contracts';
import { Route, Routes } from 'react-router-dom';
import { loadToaster, ToasterHost } from '../../../app/notify';
import { sessionStarted } from '../../../app/session';
import { makeStore } from '../../../app/store';
import { renderWithProviders } from '../../../test/render';
import SettingsPage from '../SettingsPage';

const SAVE_FAILED =
  'Não foi possível realizar a operação. Verifique se já existe uma ajuda com o mesmo nome ou se os campos foram preenchidos corretamente.';
const DELETE_FAILED = 'Não foi possível realizar a operação.';
const DONE = 'Operação realizada com sucesso!';
const ID = 'dQw4w9WgXcQ';

const realFetch = globalThis.fetch;
let calls: Array<{ method: string; path: string; body: unknown }> = [];
let helps: HelpDto[] = [];
let answer: (method: string, path: string) => { status: number; body: unknown } | undefined = () => undefined;
const settings: SettingDto[] = [{ key: 'userRating', value: 'disabled' }];

const aHelp = (id: number, title: string, video: string, description = ''): HelpDto => ({
  id,
  title,
  description,
  video,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
});

const aUser = (extra: Partial<UserDto> = {}): UserDto => ({
  id: 1,
  name: 'Root',
  email: 'root@x.com',
  profile: 'admin',
  companyId: 1,
  whatsappId: null,
  allTicket: 'enabled',
  super: true,
  online: true,
  queues: [],
  queueIds: [],
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  ...extra,
});

beforeEach(() => {
  calls = [];
  answer = () => undefined;
  helps = [aHelp(1, 'Conectando o WhatsApp', 'xyz_123-AB', 'Leia o QR code pelo celular.'), aHelp(2, 'Criando filas', 'abcDEF12345')];
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    const url = new URL(req.url);
    const text = req.method === 'GET' ? '' : await req.clone().text();
    const sent = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
    calls.push({ method: req.method, path: url.pathname, body: sent });
    const custom = answer(req.method, url.pathname);
    if (custom)
      return new Response(JSON.stringify(custom.body), { status: custom.status, headers: { 'content-type': 'application/json' } });
    let body: unknown = {};
    const id = Number(url.pathname.split('/')[2]);
    if (url.pathname.startsWith('/settings')) body = settings;
    else if (url.pathname === '/helps/list') body = helps;
    else if (url.pathname === '/helps' && req.method === 'POST') {
      const created = { ...aHelp(9, '', ''), ...sent } as HelpDto;
      helps = [...helps, created];
      body = created;
    } else if (url.pathname.startsWith('/helps/') && req.method === 'PUT') {
      helps = helps.map((h) => (h.id === id ? ({ ...h, ...sent } as HelpDto) : h));
      body = helps.find((h) => h.id === id);
    } else if (url.pathname.startsWith('/helps/') && req.method === 'DELETE') {
      helps = helps.filter((h) => h.id !== id);
      body = { message: 'Help deleted' };
    }
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
});
afterEach(async () => {
  globalThis.fetch = realFetch;
  // the toaster outlives a test: its toasts must not show in the next one
  (await loadToaster()).toaster.remove();
});

function renderAs(user: UserDto) {
  const store = makeStore();
  store.dispatch(sessionStarted({ token: 't', user }));
  return renderWithProviders(
    <>
      <Routes>
        <Route path="/settings" element={<SettingsPage />} />
        <Route path="/tickets" element={<div data-testid="tickets" />} />
      </Routes>
      <ToasterHost />
    </>,
    { store, route: '/settings' },
  );
}

/** Signs in a super user and opens the Ajuda tab. */
async function openHelps() {
  const r = renderAs(aUser());
  fireEvent.click(await waitFor(() => r.getByTestId('settings-tab-helps')));
  await waitFor(() => r.getByTestId('help-row-1'));
  return r;
}

const writes = () => calls.filter((c) => c.method !== 'GET');
const helpLists = () => calls.filter((c) => c.method === 'GET' && c.path === '/helps/list');

describe('/settings, the Ajuda tab (spec 02 "Helps", super users)', () => {
  it('a super user sees Ajuda as the last of spec 02’s tabs (the sessions’ tab, issue 43, comes after), with every help: title, video code and description', async () => {
    const r = renderAs(aUser());
    const tab = await waitFor(() => r.getByTestId('settings-tab-helps'));
    expect(tab.textContent).toBe('Ajuda');
    const triggers = [...r.container.ownerDocument.querySelectorAll('[data-testid^="settings-tab-"]')].map((e) => e.textContent);
    expect(triggers).toEqual(['Opções', 'Empresas', 'Planos', 'Ajuda', 'Sessões']);
    expect(helpLists()).toHaveLength(0);
    fireEvent.click(tab);
    const row = await waitFor(() => r.getByTestId('help-row-1'));
    expect(within(row).getByTestId('help-title-cell').textContent).toBe('Conectando o WhatsApp');
    expect(within(row).getByTestId('help-video-cell').textContent).toBe('xyz_123-AB');
    expect(within(row).getByTestId('help-description-cell').textContent).toBe('Leia o QR code pelo celular.');
    expect(r.getByTestId('helps-count').textContent).toBe('(2)');
    const headers = [...r.getByTestId('helps-table').querySelectorAll('th')].map((th) => th.textContent);
    expect(headers).toEqual(['Título', 'Código do vídeo', 'Descrição', 'Ações']);
    expect(helpLists()).toHaveLength(1);
  });

  it('a non-super admin has no Ajuda tab and never asks for the helps', async () => {
    const r = renderAs(aUser({ super: false }));
    await waitFor(() => r.getByTestId('settings-options'));
    expect(r.getByTestId('settings-tab-options')).toBeTruthy();
    expect(r.queryByTestId('settings-tab-helps')).toBeNull();
    expect(r.queryByText('Ajuda')).toBeNull();
    expect(calls.some((c) => c.path.startsWith('/helps'))).toBe(false);
  });

  it('adding sends POST /helps with the id read from a pasted YouTube address, shows its thumbnail and refetches the list', async () => {
    const r = await openHelps();
    fireEvent.click(r.getByTestId('helps-add'));
    const dialog = await waitFor(() => r.getByTestId('help-dialog'));
    expect(within(dialog).queryByTestId('help-preview')).toBeNull();
    fireEvent.change(within(dialog).getByTestId('help-title'), { target: { value: '  Respostas rápidas ' } });
    fireEvent.change(within(dialog).getByTestId('help-description'), { target: { value: 'Como criar atalhos.' } });
    fireEvent.change(within(dialog).getByTestId('help-video'), { target: { value: `https://www.youtube.com/watch?v=${ID}&t=42s` } });
    expect((within(dialog).getByTestId('help-video') as HTMLInputElement).value).toBe(ID);
    expect(within(dialog).getByTestId('help-preview').getAttribute('src')).toBe(`https://img.youtube.com/vi/${ID}/mqdefault.jpg`);
    fireEvent.click(within(dialog).getByTestId('help-save'));

    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toEqual({
      method: 'POST',
      path: '/helps',
      body: { title: 'Respostas rápidas', description: 'Como criar atalhos.', video: ID },
    });
    await r.findByText(DONE);
    await waitFor(() => expect(r.queryByTestId('help-dialog')).toBeNull());
    const row = await waitFor(() => r.getByTestId('help-row-9'));
    expect(within(row).getByTestId('help-video-cell').textContent).toBe(ID);
    expect(helpLists()).toHaveLength(2);
  });

  it('a youtu.be short link is read too', async () => {
    const r = await openHelps();
    fireEvent.click(r.getByTestId('helps-add'));
    const dialog = await waitFor(() => r.getByTestId('help-dialog'));
    fireEvent.change(within(dialog).getByTestId('help-title'), { target: { value: 'Tags' } });
    fireEvent.change(within(dialog).getByTestId('help-video'), { target: { value: `https://youtu.be/${ID}?si=abc` } });
    fireEvent.click(within(dialog).getByTestId('help-save'));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0].body).toEqual({ title: 'Tags', description: '', video: ID });
  });

  it('a title already taken (400 ERR_VALIDATION on title) shows the save-failure text and keeps the dialog open', async () => {
    answer = (method, path) =>
      method === 'POST' && path === '/helps'
        ? {
            status: 400,
            body: {
              error: 'ERR_VALIDATION',
              message: 'A help with this title already exists',
              details: [{ field: 'title', messages: ['A help with this title already exists'] }],
            },
          }
        : undefined;
    const r = await openHelps();
    fireEvent.click(r.getByTestId('helps-add'));
    const dialog = await waitFor(() => r.getByTestId('help-dialog'));
    fireEvent.change(within(dialog).getByTestId('help-title'), { target: { value: 'Criando filas' } });
    fireEvent.change(within(dialog).getByTestId('help-video'), { target: { value: ID } });
    fireEvent.click(within(dialog).getByTestId('help-save'));

    await r.findByText(SAVE_FAILED);
    expect(writes()).toHaveLength(1);
    expect(r.getByTestId('help-dialog')).toBeTruthy();
    expect(within(r.getByTestId('help-dialog')).getByText('Já existe uma ajuda com este título.')).toBeTruthy();
    expect(r.queryByText(DONE)).toBeNull();
    expect(helpLists()).toHaveLength(1);
  });

  it('a missing title or a video that is not a code shows the field errors and sends nothing', async () => {
    const r = await openHelps();
    fireEvent.click(r.getByTestId('helps-add'));
    const dialog = await waitFor(() => r.getByTestId('help-dialog'));
    fireEvent.change(within(dialog).getByTestId('help-video'), { target: { value: 'https://vimeo.com/123' } });
    expect(within(dialog).queryByTestId('help-preview')).toBeNull();
    fireEvent.click(within(dialog).getByTestId('help-save'));
    await waitFor(() => expect(within(dialog).getByText('Obrigatório')).toBeTruthy());
    expect(within(dialog).getByText('Código de vídeo inválido')).toBeTruthy();
    expect(writes()).toHaveLength(0);
  });

  it('an edit shows the saved help and sends PUT /helps/{id} with what changed', async () => {
    const r = await openHelps();
    fireEvent.click(within(r.getByTestId('help-row-2')).getByTestId('help-edit'));
    const dialog = await waitFor(() => r.getByTestId('help-dialog'));
    expect((within(dialog).getByTestId('help-title') as HTMLInputElement).value).toBe('Criando filas');
    expect((within(dialog).getByTestId('help-video') as HTMLInputElement).value).toBe('abcDEF12345');
    fireEvent.change(within(dialog).getByTestId('help-video'), { target: { value: `https://www.youtube.com/embed/${ID}` } });
    fireEvent.click(within(dialog).getByTestId('help-save'));

    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toEqual({ method: 'PUT', path: '/helps/2', body: { video: ID } });
    await r.findByText(DONE);
    await waitFor(() => expect(within(r.getByTestId('help-row-2')).getByTestId('help-video-cell').textContent).toBe(ID));
  });

  it('delete asks for confirmation first, then sends DELETE /helps/{id}', async () => {
    const r = await openHelps();
    fireEvent.click(within(r.getByTestId('help-row-2')).getByTestId('help-delete'));
    const confirm = await waitFor(() => r.getByTestId('confirm-dialog'));
    expect(confirm.textContent).toContain('Criando filas');
    expect(writes()).toHaveLength(0);
    fireEvent.click(within(confirm).getByTestId('confirm-ok'));

    await waitFor(() => expect(writes()).toEqual([{ method: 'DELETE', path: '/helps/2', body: undefined }]));
    await r.findByText(DONE);
    await waitFor(() => expect(r.queryByTestId('help-row-2')).toBeNull());
    expect(r.getByTestId('help-row-1')).toBeTruthy();
  });

  it('cancelling the confirmation sends nothing', async () => {
    const r = await openHelps();
    fireEvent.click(within(r.getByTestId('help-row-1')).getByTestId('help-delete'));
    const confirm = await waitFor(() => r.getByTestId('confirm-dialog'));
    fireEvent.click(within(confirm).getByText('Cancelar'));
    await waitFor(() => expect(r.queryByTestId('confirm-dialog')).toBeNull());
    expect(writes()).toHaveLength(0);
  });

  it('a refused delete shows the spec’s delete-failure text and keeps the row', async () => {
    answer = (method) => (method === 'DELETE' ? { status: 500, body: { error: 'ERR_INTERNAL', message: 'boom' } } : undefined);
    const r = await openHelps();
    fireEvent.click(within(r.getByTestId('help-row-1')).getByTestId('help-delete'));
    fireEvent.click(within(await waitFor(() => r.getByTestId('confirm-dialog'))).getByTestId('confirm-ok'));

    await r.findByText(DELETE_FAILED);
    expect(r.getByTestId('help-row-1')).toBeTruthy();
    expect(r.getByTestId('confirm-dialog')).toBeTruthy();
  });
});
