import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, waitFor, within } from '@testing-library/react';
import type { AnnouncementDto, UserDto } from '@wa/contracts';
import { Route, Routes } from 'react-router-dom';
import { loadToaster, ToasterHost } from '../../../app/notify';
import { sessionStarted } from '../../../app/session';
import { makeStore } from '../../../app/store';
import { renderWithProviders } from '../../../test/render';
import AnnouncementsPage from '../AnnouncementsPage';
import { anAnnouncement, aUser, nodeUpload, withImage } from './an-announcement';

const DONE = 'Operação realizada com sucesso!';
const DELETE_FAILED = 'Não foi possível realizar a operação.';
const LOAD_FAILED = 'Não foi possível carregar a lista de registros';
const NOT_ALLOWED = 'Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.';

const realFetch = globalThis.fetch;
const realFormData = globalThis.FormData;
const realCreateObjectURL = URL.createObjectURL;
interface Call {
  method: string;
  path: string;
  search: string;
  body: unknown;
  /** a multipart body: its fields (a file by its name) */
  parts?: Record<string, string>;
}
let calls: Call[] = [];
let records: AnnouncementDto[] = [];
let answer: (method: string, path: string) => { status: number; body: unknown } | undefined = () => undefined;

beforeEach(() => {
  calls = [];
  answer = () => undefined;
  records = [
    anAnnouncement(3, 'Manutenção programada', { priority: 1, text: 'Hoje às 22h' }),
    withImage(anAnnouncement(2, 'Nova versão', { priority: 2 }), 'versao.png'),
    anAnnouncement(1, 'Aviso antigo', { status: false }),
  ];
  URL.createObjectURL = (() => 'blob:announcement-image') as typeof URL.createObjectURL;
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    const url = new URL(req.url);
    const type = req.headers.get('content-type') ?? '';
    let sent: Record<string, unknown> | undefined;
    let parts: Record<string, string> | undefined;
    if (type.startsWith('multipart/form-data')) {
      const form = await req.clone().formData();
      parts = {};
      for (const [key, value] of form.entries()) parts[key] = typeof value === 'string' ? value : `file:${(value as File).name}`;
    } else if (req.method !== 'GET') {
      const text = await req.clone().text();
      sent = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
    }
    calls.push({ method: req.method, path: url.pathname, search: url.search, body: sent, parts });
    const custom = answer(req.method, url.pathname);
    if (custom)
      return new Response(JSON.stringify(custom.body), { status: custom.status, headers: { 'content-type': 'application/json' } });
    const id = Number(url.pathname.split('/')[2]);
    const one = records.find((a) => a.id === id);
    let body: unknown = {};
    if (url.pathname === '/announcements' && req.method === 'GET') body = { records, count: records.length, hasMore: false };
    else if (url.pathname === '/announcements' && req.method === 'POST') {
      const created = { ...anAnnouncement(9, ''), ...sent } as AnnouncementDto;
      records = [created, ...records];
      body = created;
    } else if (url.pathname.endsWith('/media-upload') && one) {
      const next =
        req.method === 'POST'
          ? withImage(one, parts?.file?.replace('file:', ''))
          : { ...one, mediaPath: null, mediaName: null, mediaUrl: null };
      records = records.map((a) => (a.id === id ? next : a));
      body = next;
    } else if (url.pathname.endsWith('/media')) {
      return new Response('png-bytes', { status: 200, headers: { 'content-type': 'image/png' } });
    } else if (req.method === 'PUT' && one) {
      records = records.map((a) => (a.id === id ? ({ ...a, ...sent } as AnnouncementDto) : a));
      body = records.find((a) => a.id === id);
    } else if (req.method === 'DELETE' && one) {
      records = records.filter((a) => a.id !== id);
      body = { message: 'Announcement deleted' };
    }
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
});
afterEach(async () => {
  globalThis.fetch = realFetch;
  globalThis.FormData = realFormData;
  URL.createObjectURL = realCreateObjectURL;
  // the toaster outlives a test: its toasts must not show in the next one
  (await loadToaster()).toaster.remove();
});

function renderAs(user: UserDto) {
  const store = makeStore();
  store.dispatch(sessionStarted({ token: 't', user }));
  return renderWithProviders(
    <>
      <Routes>
        <Route path="/announcements" element={<AnnouncementsPage />} />
        <Route path="/" element={<div data-testid="home" />} />
      </Routes>
      <ToasterHost />
    </>,
    { store, route: '/announcements' },
  );
}

const writes = () => calls.filter((c) => c.method !== 'GET');
const listLoads = () => calls.filter((c) => c.method === 'GET' && c.path === '/announcements');
const rows = (r: ReturnType<typeof renderAs>) => r.getAllByTestId('announcement-row');
const rowOf = (r: ReturnType<typeof renderAs>, id: number) =>
  rows(r).find((row) => row.getAttribute('data-id') === String(id)) as HTMLElement;

async function openAdd(r: ReturnType<typeof renderAs>) {
  fireEvent.click(await waitFor(() => r.getByTestId('announcements-add')));
  return waitFor(() => r.getByTestId('announcement-dialog'));
}

describe('/announcements (spec 02 "Announcements", super users)', () => {
  it('lists every announcement: title, priority in its colour, attachment and status', async () => {
    const r = renderAs(aUser());
    await waitFor(() => expect(rows(r)).toHaveLength(3));
    expect(r.getByTestId('announcements-title').textContent).toContain('Informativos');
    expect(r.getByTestId('announcements-count').textContent).toBe('(3)');
    const headers = [...r.getByTestId('announcements-table').querySelectorAll('th')].map((th) => th.textContent);
    expect(headers).toEqual(['Título', 'Prioridade', 'Anexo', 'Status', 'Ações']);
    expect(rows(r).map((row) => within(row).getByTestId('announcement-title-cell').textContent)).toEqual([
      'Manutenção programada',
      'Nova versão',
      'Aviso antigo',
    ]);

    const priorities = rows(r).map((row) => within(row).getByTestId('announcement-priority-cell'));
    expect(priorities.map((b) => b.textContent)).toEqual(['Alta', 'Média', 'Baixa']);
    expect(priorities.map((b) => b.getAttribute('data-color'))).toEqual(['red', 'orange', 'gray']);
    expect(within(rowOf(r, 2)).getByTestId('announcement-attachment-cell').textContent).toBe('versao.png');
    expect(within(rowOf(r, 3)).getByTestId('announcement-attachment-cell').textContent).toBe('—');
    expect(rows(r).map((row) => within(row).getByTestId('announcement-status-cell').textContent)).toEqual(['Ativo', 'Ativo', 'Inativo']);
    expect(listLoads()[0].search).toBe('?pageNumber=1');
  });

  it('others than super users get the notice and go to / after 1 s, without loading the list', async () => {
    const r = renderAs(aUser({ super: false }));
    expect(r.getByTestId('page-not-allowed').textContent).toBe(NOT_ALLOWED);
    expect(r.queryByTestId('announcements-page')).toBeNull();
    await waitFor(() => expect(r.getByTestId('home')).toBeTruthy(), { timeout: 3000 });
    expect(calls.filter((c) => c.path.startsWith('/announcements'))).toHaveLength(0);
  });

  it('a list that fails to load says "Não foi possível carregar a lista de registros"', async () => {
    answer = (method, path) =>
      method === 'GET' && path === '/announcements' ? { status: 500, body: { error: 'ERR_INTERNAL', message: 'boom' } } : undefined;
    const r = renderAs(aUser());
    await waitFor(() => expect(r.getAllByText(LOAD_FAILED).length).toBeGreaterThanOrEqual(2)); // on the page and as a toast
    expect(r.queryByTestId('announcement-row')).toBeNull();
  });

  it('title and text are required ("Obrigatório"): nothing is sent without them', async () => {
    const r = renderAs(aUser());
    const dialog = await openAdd(r);
    fireEvent.click(within(dialog).getByTestId('announcement-save'));
    await waitFor(() => expect(within(dialog).getByTestId('announcement-title-error').textContent).toBe('Obrigatório'));
    expect(within(dialog).getByTestId('announcement-text-error').textContent).toBe('Obrigatório');
    fireEvent.change(within(dialog).getByTestId('announcement-title'), { target: { value: 'Aviso' } });
    fireEvent.change(within(dialog).getByTestId('announcement-text'), { target: { value: '   ' } });
    fireEvent.click(within(dialog).getByTestId('announcement-save'));
    await waitFor(() => expect(within(dialog).queryByTestId('announcement-title-error')).toBeNull());
    expect(within(dialog).getByTestId('announcement-text-error').textContent).toBe('Obrigatório');
    await new Promise((done) => setTimeout(done, 50));
    expect(writes()).toHaveLength(0);
  });

  it('a new one starts low priority and active, is saved, then its image is uploaded as multipart "file"; the list is fetched again', async () => {
    const { file, NodeFormData } = await nodeUpload('banner.JPG');
    globalThis.FormData = NodeFormData;
    const r = renderAs(aUser());
    const dialog = await openAdd(r);
    const priority = within(dialog).getByTestId('announcement-priority') as HTMLSelectElement;
    expect(priority.value).toBe('3');
    expect([...priority.options].map((o) => o.textContent)).toEqual(['Alta', 'Média', 'Baixa']);
    expect(within(dialog).getByTestId('announcement-status').getAttribute('data-state')).toBe('checked');
    expect(within(dialog).getByTestId('announcement-file').getAttribute('accept')).toBe('.png,.jpg,.jpeg,image/png,image/jpeg');

    fireEvent.change(within(dialog).getByTestId('announcement-title'), { target: { value: '  Feriado ' } });
    fireEvent.change(within(dialog).getByTestId('announcement-text'), { target: { value: 'Sem atendimento na segunda.' } });
    fireEvent.change(priority, { target: { value: '1' } });
    fireEvent.change(within(dialog).getByTestId('announcement-file'), { target: { files: [file] } });
    expect(within(dialog).getByTestId('announcement-attachment').textContent).toBe('banner.JPG');
    const loadsBefore = listLoads().length;
    fireEvent.click(within(dialog).getByTestId('announcement-save'));

    await waitFor(() => expect(writes()).toHaveLength(2));
    expect(writes()[0]).toMatchObject({
      method: 'POST',
      path: '/announcements',
      body: { title: 'Feriado', text: 'Sem atendimento na segunda.', priority: 1, status: true },
    });
    expect(writes()[1]).toMatchObject({ method: 'POST', path: '/announcements/9/media-upload', parts: { file: 'file:banner.JPG' } });
    await waitFor(() => expect(r.queryByTestId('announcement-dialog')).toBeNull());
    expect(await r.findByText(DONE)).toBeTruthy();
    await waitFor(() => expect(listLoads().length).toBeGreaterThan(loadsBefore));
    await waitFor(() => expect(within(rowOf(r, 9)).getByTestId('announcement-attachment-cell').textContent).toBe('banner.JPG'));
  });

  it('refuses an image other than .png, .jpg, .jpeg', async () => {
    const r = renderAs(aUser());
    const dialog = await openAdd(r);
    fireEvent.change(within(dialog).getByTestId('announcement-file'), {
      target: { files: [new File(['x'], 'anim.gif', { type: 'image/gif' })] },
    });
    expect(within(dialog).getByTestId('announcement-file-error').textContent).toBe('Escolha uma imagem .png, .jpg ou .jpeg');
    expect(within(dialog).getByTestId('announcement-attachment').textContent).toBe('Sem anexo');
    fireEvent.change(within(dialog).getByTestId('announcement-title'), { target: { value: 'Aviso' } });
    fireEvent.change(within(dialog).getByTestId('announcement-text'), { target: { value: 'Corpo' } });
    fireEvent.click(within(dialog).getByTestId('announcement-save'));
    await new Promise((done) => setTimeout(done, 50));
    expect(writes()).toHaveLength(0);
  });

  it('an edit sends only what changed; taking the image off unlinks it after the save', async () => {
    const r = renderAs(aUser());
    await waitFor(() => expect(rows(r)).toHaveLength(3));
    fireEvent.click(within(rowOf(r, 2)).getByTestId('announcement-edit'));
    const dialog = await waitFor(() => r.getByTestId('announcement-dialog'));
    expect((within(dialog).getByTestId('announcement-title') as HTMLInputElement).value).toBe('Nova versão');
    expect((within(dialog).getByTestId('announcement-priority') as HTMLSelectElement).value).toBe('2');
    expect(within(dialog).getByTestId('announcement-attachment').textContent).toBe('versao.png');
    // the saved image, fetched with the session's token
    await waitFor(() => expect(within(dialog).getByTestId('announcement-image').getAttribute('src')).toBe('blob:announcement-image'));
    expect(calls.some((c) => c.method === 'GET' && c.path === '/announcements/2/media')).toBe(true);

    fireEvent.click(within(dialog).getByLabelText(/^Status/));
    await waitFor(() => expect(within(dialog).getByTestId('announcement-status').getAttribute('data-state')).toBe('unchecked'));
    fireEvent.click(within(dialog).getByTestId('announcement-remove-file'));
    expect(within(dialog).getByTestId('announcement-attachment').textContent).toBe('Sem anexo');
    fireEvent.click(within(dialog).getByTestId('announcement-save'));
    await waitFor(() => expect(writes()).toHaveLength(2));
    expect(writes()[0]).toEqual({ method: 'PUT', path: '/announcements/2', search: '', body: { status: false } });
    expect(writes()[1]).toMatchObject({ method: 'DELETE', path: '/announcements/2/media-upload' });
    await waitFor(() => expect(r.queryByTestId('announcement-dialog')).toBeNull());
    await waitFor(() => expect(within(rowOf(r, 2)).getByTestId('announcement-status-cell').textContent).toBe('Inativo'));
    expect(within(rowOf(r, 2)).getByTestId('announcement-attachment-cell').textContent).toBe('—');
  });

  it("shows the server's checks on the fields and keeps the dialog open", async () => {
    answer = (method, path) =>
      method === 'POST' && path === '/announcements'
        ? { status: 400, body: { error: 'ERR_VALIDATION', message: 'x', details: [{ field: 'title', messages: ['Too Long!'] }] } }
        : undefined;
    const r = renderAs(aUser());
    const dialog = await openAdd(r);
    fireEvent.change(within(dialog).getByTestId('announcement-title'), { target: { value: 'Aviso' } });
    fireEvent.change(within(dialog).getByTestId('announcement-text'), { target: { value: 'Corpo' } });
    fireEvent.click(within(dialog).getByTestId('announcement-save'));
    await waitFor(() => expect(within(dialog).getByTestId('announcement-title-error').textContent).toBe('Too Long!'));
    expect(r.getByTestId('announcement-dialog')).toBeTruthy();
  });

  it('a delete asks first, then removes it with "Operação realizada com sucesso!"', async () => {
    const r = renderAs(aUser());
    await waitFor(() => expect(rows(r)).toHaveLength(3));
    fireEvent.click(within(rowOf(r, 1)).getByTestId('announcement-delete'));
    const confirm = await waitFor(() => r.getByTestId('confirm-dialog'));
    expect(within(confirm).getByText('Excluir Aviso antigo?')).toBeTruthy();
    expect(writes()).toHaveLength(0);
    fireEvent.click(within(confirm).getByTestId('confirm-ok'));
    await waitFor(() =>
      expect(writes()).toEqual([{ method: 'DELETE', path: '/announcements/1', search: '', body: undefined, parts: undefined }]),
    );
    expect(await r.findByText(DONE)).toBeTruthy();
    await waitFor(() => expect(rows(r)).toHaveLength(2));
  });

  it('a refused delete says "Não foi possível realizar a operação." and keeps the row', async () => {
    answer = (method) => (method === 'DELETE' ? { status: 404, body: { error: 'ERR_NOT_FOUND', message: 'not found' } } : undefined);
    const r = renderAs(aUser());
    await waitFor(() => expect(rows(r)).toHaveLength(3));
    fireEvent.click(within(rowOf(r, 3)).getByTestId('announcement-delete'));
    fireEvent.click(within(await waitFor(() => r.getByTestId('confirm-dialog'))).getByTestId('confirm-ok'));
    expect(await r.findByText(DELETE_FAILED)).toBeTruthy();
    expect(r.getByTestId('confirm-dialog')).toBeTruthy();
    expect(rows(r)).toHaveLength(3);
  });
});
