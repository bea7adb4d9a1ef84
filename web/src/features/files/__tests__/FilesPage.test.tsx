import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, waitFor, within } from '@testing-library/react';
import type { FileListDto, UserDto } from '@wa/contracts';
import { Route, Routes } from 'react-router-dom';
import { loadToaster, ToasterHost } from '../../../app/notify';
import { sessionStarted } from '../../../app/session';
import { clearSession, storeSession } from '../../../app/storage';
import { makeStore } from '../../../app/store';
import { RealtimeContext } from '../../../realtime/RealtimeProvider';
import type { RealtimeClient } from '../../../realtime/realtime-client';
import { useSocketCacheSync } from '../../../realtime/use-socket-cache-sync';
import { filesSocket } from '../files.socket';
import { renderWithProviders } from '../../../test/render';
import FilesPage from '../FilesPage';
import { aFileList, anOption } from './a-file-list';

const DONE = 'Operação realizada com sucesso!';
const LOAD_FAILED = 'Não foi possível carregar a lista de registros';
const DELETE_FAILED = 'Não foi possível realizar a operação.';

/** What reached the fake server: JSON bodies parsed, multipart bodies as their fields. */
interface Call {
  method: string;
  path: string;
  search: string;
  auth: string | null;
  body?: unknown;
  form?: { typeArch: string[]; fileId: string[]; id: string[]; mediaType: string[]; files: string[] };
}

const realFetch = globalThis.fetch;
const realFormData = globalThis.FormData;
let calls: Call[] = [];
let lists: FileListDto[] = [];
let pageSize = 20;
let nextOptionId = 20;
let answer: (method: string, path: string) => { status: number; body: unknown } | undefined = () => undefined;

// jsdom's FormData and File cannot go through Node's Request: the page sends Node's own (as the browser's would be)
let NodeFile: typeof File;

beforeAll(async () => {
  const fields = await new Response('a=1', { headers: { 'content-type': 'application/x-www-form-urlencoded' } }).formData();
  globalThis.FormData = fields.constructor as typeof FormData;
  const multipart = await new Response(
    '--b\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhi\r\n--b--\r\n',
    {
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
    },
  ).formData();
  NodeFile = (multipart.get('f') as object).constructor as typeof File;
});
afterAll(() => {
  globalThis.FormData = realFormData;
});

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  calls = [];
  pageSize = 20;
  nextOptionId = 20;
  answer = () => undefined;
  lists = [
    aFileList(1, 'Catálogos', { message: 'Segue o catálogo', options: [anOption(7, 'Tabela', 'tabela.pdf'), anOption(8, 'Fotos')] }),
    aFileList(2, 'Contratos', { message: 'Modelos de contrato' }),
  ];
  storeSession('session-token');
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    const url = new URL(req.url);
    const call: Call = { method: req.method, path: url.pathname, search: url.search, auth: req.headers.get('authorization') };
    if ((req.headers.get('content-type') ?? '').startsWith('multipart/form-data')) {
      const f = await req.clone().formData();
      const texts = (name: string) => f.getAll(name).map(String);
      call.form = {
        typeArch: texts('typeArch'),
        fileId: texts('fileId'),
        id: texts('id'),
        mediaType: texts('mediaType'),
        files: f.getAll('files').map((x) => (x as File).name),
      };
    } else if (req.method !== 'GET') {
      const text = await req.clone().text();
      call.body = text ? JSON.parse(text) : undefined;
    }
    calls.push(call);
    const custom = answer(req.method, url.pathname);
    if (custom) return json(custom.body, custom.status);

    const id = Number(url.pathname.split('/').pop());
    if (url.pathname === '/files' && req.method === 'GET') {
      const search = (url.searchParams.get('searchParam') ?? '').toLowerCase();
      const page = Number(url.searchParams.get('pageNumber') ?? 1);
      const found = lists.filter((l) => l.name.toLowerCase().includes(search)).sort((a, b) => a.name.localeCompare(b.name));
      return json({
        files: found.slice((page - 1) * pageSize, page * pageSize),
        count: found.length,
        hasMore: found.length > page * pageSize,
      });
    }
    if (url.pathname.startsWith('/media/'))
      return new Response('%PDF-1.4', { status: 200, headers: { 'content-type': 'application/pdf' } });
    if (url.pathname.startsWith('/files/uploadList/')) {
      const list = lists.find((l) => l.id === id) as FileListDto;
      call.form?.id.forEach((optionId, i) => {
        const o = list.options.find((x) => x.id === Number(optionId));
        if (o) Object.assign(o, anOption(o.id, o.name, call.form?.files[i]));
      });
      return json(list);
    }
    if (url.pathname === '/files' && req.method === 'POST') {
      const body = call.body as { name: string; message: string; options: Array<{ name: string }> };
      const list = aFileList(30, body.name, { message: body.message, options: body.options.map((o) => anOption(nextOptionId++, o.name)) });
      lists.push(list);
      return json(list);
    }
    if (req.method === 'PUT') {
      const body = call.body as { name: string; message: string; options: Array<{ id?: number; name: string }> };
      const old = lists.find((l) => l.id === id) as FileListDto;
      const list = {
        ...old,
        name: body.name,
        message: body.message,
        options: body.options.map((o) =>
          o.id ? { ...(old.options.find((x) => x.id === o.id) ?? anOption(o.id, o.name)), name: o.name } : anOption(nextOptionId++, o.name),
        ),
      };
      lists = lists.map((l) => (l.id === id ? list : l));
      return json(list);
    }
    if (req.method === 'DELETE') {
      lists = lists.filter((l) => l.id !== id);
      return json({ message: 'File list deleted' });
    }
    return json(lists.find((l) => l.id === id) ?? {}, lists.some((l) => l.id === id) ? 200 : 404);
  }) as unknown as typeof fetch;
});
afterEach(async () => {
  globalThis.fetch = realFetch;
  clearSession();
  // the toaster outlives a test: its toasts must not show in the next one
  (await loadToaster()).toaster.remove();
});

function aUser(profile: UserDto['profile']): UserDto {
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
  };
}

/** A stand-in for the live socket: the test fires the server's events. */
function fakeSocket() {
  const handlers = new Map<string, (p: unknown) => void>();
  const client = {
    on: (channel: string, h: (p: unknown) => void) => {
      handlers.set(channel, h);
      return () => handlers.delete(channel);
    },
    join: () => () => undefined,
  } as unknown as RealtimeClient;
  return { client, fire: (channel: string, payload: unknown) => act(() => handlers.get(channel)?.(payload)) };
}

/** The layout's live-event hook, as the signed-in frame mounts it. */
function SocketSync() {
  useSocketCacheSync(filesSocket);
  return null;
}

function renderAs(profile: UserDto['profile'] = 'admin') {
  const store = makeStore();
  store.dispatch(sessionStarted({ token: 'session-token', user: aUser(profile) }));
  const socket = fakeSocket();
  const r = renderWithProviders(
    <RealtimeContext.Provider value={socket.client}>
      <SocketSync />
      <Routes>
        <Route path="/files" element={<FilesPage />} />
        <Route path="/tickets" element={<div data-testid="tickets" />} />
      </Routes>
      <ToasterHost />
    </RealtimeContext.Provider>,
    { store, route: '/files' },
  );
  return { ...r, socket };
}

const rows = (r: ReturnType<typeof renderAs>) => r.queryAllByTestId('file-list-row');
const rowNames = (r: ReturnType<typeof renderAs>) => rows(r).map((row) => within(row).getByTestId('file-list-name-cell').textContent);
const rowOf = (r: ReturnType<typeof renderAs>, id: number) =>
  rows(r).find((row) => row.getAttribute('data-file-list-id') === String(id)) as HTMLElement;
const writes = () => calls.filter((c) => c.method !== 'GET');
const listLoads = () => calls.filter((c) => c.method === 'GET' && c.path === '/files');

async function loaded() {
  const r = renderAs();
  await waitFor(() => expect(rows(r)).toHaveLength(lists.length));
  return r;
}

async function openAdd(r: ReturnType<typeof renderAs>) {
  fireEvent.click(r.getByTestId('files-add'));
  return waitFor(() => r.getByTestId('file-list-dialog'));
}

/** Picks a file for the option of that row. */
function pick(option: HTMLElement, file: File) {
  fireEvent.change(within(option).getByTestId('file-option-file'), { target: { files: [file] } });
}

describe('/files (spec 02 "Files")', () => {
  it('lists the file lists by name with their message and options', async () => {
    const r = await loaded();
    expect(r.getByTestId('files-title').textContent).toContain('Lista de arquivos');
    expect(r.getByTestId('files-count').textContent).toBe('(2)');
    expect(rowNames(r)).toEqual(['Catálogos', 'Contratos']);
    const first = rowOf(r, 1);
    expect(within(first).getByTestId('file-list-message-cell').textContent).toBe('Segue o catálogo');
    expect(within(first).getByTestId('file-list-option-download').textContent).toBe('Tabela');
    expect(within(first).getByTestId('file-list-option').textContent).toBe('Fotos');
    expect(listLoads()[0].search).toBe('?pageNumber=1');
  });

  it("downloads an option's file with the session's token", async () => {
    const createObjectURL = jest.fn(() => 'blob:tabela');
    const clicked: Array<{ href: string; download: string }> = [];
    Object.assign(URL, { createObjectURL, revokeObjectURL: jest.fn() });
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download });
    });
    try {
      const r = await loaded();
      fireEvent.click(within(rowOf(r, 1)).getByTestId('file-list-option-download'));
      await waitFor(() => expect(clicked).toEqual([{ href: 'blob:tabela', download: 'tabela.pdf' }]));
      const media = calls.filter((c) => c.path.startsWith('/media/'));
      expect(media).toHaveLength(1);
      expect(media[0]).toMatchObject({ method: 'GET', path: '/media/1/fileList/tabela.pdf', auth: 'Bearer session-token' });
    } finally {
      click.mockRestore();
    }
  });

  it('searches by name (debounced)', async () => {
    const r = await loaded();
    fireEvent.change(r.getByTestId('files-search'), { target: { value: ' contr ' } });
    await waitFor(() => expect(rowNames(r)).toEqual(['Contratos']), { timeout: 2000 });
    expect(listLoads().at(-1)?.search).toBe('?searchParam=contr&pageNumber=1');
    expect(r.getByTestId('files-count').textContent).toBe('(1)');
  });

  it('loads the next page when the list is scrolled within 100 px of its end', async () => {
    pageSize = 20;
    lists = Array.from({ length: 25 }, (_v, i) => aFileList(100 + i, `Lista ${String(i).padStart(2, '0')}`));
    const box = { scrollHeight: 1000, clientHeight: 400 };
    const height = jest.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return this.dataset.testid === 'files-list' ? box.scrollHeight : 0;
    });
    const client = jest.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return this.dataset.testid === 'files-list' ? box.clientHeight : 0;
    });
    try {
      const r = renderAs();
      await waitFor(() => expect(rows(r)).toHaveLength(20));
      const list = r.getByTestId('files-list');
      list.scrollTop = 450; // 150 px from the end
      fireEvent.scroll(list);
      await new Promise((done) => setTimeout(done, 50));
      expect(listLoads().map((c) => c.search)).toEqual(['?pageNumber=1']);
      list.scrollTop = 520; // 80 px from the end
      fireEvent.scroll(list);
      await waitFor(() => expect(rows(r)).toHaveLength(25));
      expect(listLoads().map((c) => c.search)).toEqual(['?pageNumber=1', '?pageNumber=2']);
    } finally {
      height.mockRestore();
      client.mockRestore();
    }
  });

  it('adding: saves the list, then uploads the options’ files in one call, matched to the new options', async () => {
    const r = await loaded();
    const dialog = await openAdd(r);
    fireEvent.change(within(dialog).getByTestId('file-list-name'), { target: { value: '  Orçamentos ' } });
    fireEvent.change(within(dialog).getByTestId('file-list-message'), { target: { value: 'Veja os anexos' } });
    fireEvent.click(within(dialog).getByTestId('file-option-add'));
    fireEvent.click(within(dialog).getByTestId('file-option-add'));
    fireEvent.click(within(dialog).getByTestId('file-option-add'));
    const options = within(dialog).getAllByTestId('file-option');
    expect(options).toHaveLength(3);
    fireEvent.change(within(options[0]).getByTestId('file-option-name'), { target: { value: 'Tabela' } });
    pick(options[0], new NodeFile(['%PDF'], 'tabela.pdf', { type: 'application/pdf' }));
    fireEvent.change(within(options[1]).getByTestId('file-option-name'), { target: { value: 'Sem arquivo' } });
    fireEvent.change(within(options[2]).getByTestId('file-option-name'), { target: { value: 'Foto' } });
    pick(options[2], new NodeFile(['png'], 'foto.png', { type: 'image/png' }));
    expect(within(options[2]).getByTestId('file-option-picked').textContent).toContain('foto.png');
    fireEvent.click(within(dialog).getByTestId('file-list-save'));

    await waitFor(() => expect(writes()).toHaveLength(2));
    expect(writes()[0]).toMatchObject({
      method: 'POST',
      path: '/files',
      body: { name: 'Orçamentos', message: 'Veja os anexos', options: [{ name: 'Tabela' }, { name: 'Sem arquivo' }, { name: 'Foto' }] },
    });
    expect(writes()[1]).toMatchObject({
      method: 'POST',
      path: '/files/uploadList/30',
      form: {
        typeArch: ['fileList'],
        fileId: ['30'],
        id: ['20', '22'],
        mediaType: ['application/pdf', 'image/png'],
        files: ['tabela.pdf', 'foto.png'],
      },
    });
    await r.findByText(DONE);
    await waitFor(() => expect(r.queryByTestId('file-list-dialog')).toBeNull());
    // the new list takes its place by name, with its files, without loading the list again
    expect(rowNames(r)).toEqual(['Catálogos', 'Contratos', 'Orçamentos']);
    expect(
      within(rowOf(r, 30))
        .getAllByTestId('file-list-option-download')
        .map((b) => b.textContent),
    ).toEqual(['Tabela', 'Foto']);
    expect(listLoads()).toHaveLength(1);
  });

  it('a list without files is saved without an upload', async () => {
    const r = await loaded();
    const dialog = await openAdd(r);
    fireEvent.change(within(dialog).getByTestId('file-list-name'), { target: { value: 'Avisos' } });
    fireEvent.change(within(dialog).getByTestId('file-list-message'), { target: { value: 'Olá' } });
    // an option row left empty is not sent
    fireEvent.click(within(dialog).getByTestId('file-option-add'));
    fireEvent.click(within(dialog).getByTestId('file-list-save'));
    await r.findByText(DONE);
    expect(writes()).toEqual([
      expect.objectContaining({ method: 'POST', path: '/files', body: { name: 'Avisos', message: 'Olá', options: [] } }),
    ]);
  });

  it("a name under 3 characters shows 'nome muito curto', an empty message 'Obrigatório', and nothing is sent", async () => {
    const r = await loaded();
    const dialog = await openAdd(r);
    fireEvent.change(within(dialog).getByTestId('file-list-name'), { target: { value: 'ab' } });
    fireEvent.click(within(dialog).getByTestId('file-list-save'));
    await waitFor(() => expect(within(dialog).getByTestId('file-list-name-error').textContent).toBe('nome muito curto'));
    expect(within(dialog).getByTestId('file-list-message-error').textContent).toBe('Obrigatório');
    // an option with a file needs a name
    fireEvent.change(within(dialog).getByTestId('file-list-name'), { target: { value: 'abc' } });
    fireEvent.change(within(dialog).getByTestId('file-list-message'), { target: { value: 'Oi' } });
    fireEvent.click(within(dialog).getByTestId('file-option-add'));
    pick(within(dialog).getByTestId('file-option'), new NodeFile(['x'], 'a.pdf', { type: 'application/pdf' }));
    fireEvent.click(within(dialog).getByTestId('file-list-save'));
    await waitFor(() => expect(within(dialog).getByTestId('file-option-name-error').textContent).toBe('Obrigatório'));
    expect(within(dialog).queryByTestId('file-list-name-error')).toBeNull();
    await new Promise((done) => setTimeout(done, 50));
    expect(writes()).toHaveLength(0);
    expect(r.getByTestId('file-list-dialog')).toBeTruthy();
  });

  it('editing: reads the list anew, keeps the options by id, drops the removed ones, and uploads a replaced file for its option', async () => {
    const r = await loaded();
    lists[0] = { ...lists[0], message: 'Mensagem nova no servidor' };
    fireEvent.click(within(rowOf(r, 1)).getByTestId('file-list-edit'));
    const dialog = await waitFor(() => r.getByTestId('file-list-dialog'));
    await waitFor(() =>
      expect((within(dialog).getByTestId('file-list-message') as HTMLTextAreaElement).value).toBe('Mensagem nova no servidor'),
    );
    expect(calls.some((c) => c.method === 'GET' && c.path === '/files/1')).toBe(true);
    expect((within(dialog).getByTestId('file-list-name') as HTMLInputElement).value).toBe('Catálogos');
    const options = within(dialog).getAllByTestId('file-option');
    expect(options.map((o) => (within(o).getByTestId('file-option-name') as HTMLInputElement).value)).toEqual(['Tabela', 'Fotos']);
    expect(within(options[0]).getByTestId('file-option-download').textContent).toContain('tabela.pdf');
    expect(within(options[1]).getByTestId('file-option-none')).toBeTruthy();
    // the second option goes; the first gets a new file; a new option comes with its own
    fireEvent.click(within(options[1]).getByTestId('file-option-remove'));
    pick(options[0], new NodeFile(['%PDF'], 'tabela-2027.pdf', { type: 'application/pdf' }));
    fireEvent.click(within(dialog).getByTestId('file-option-add'));
    const added = within(dialog).getAllByTestId('file-option')[1];
    fireEvent.change(within(added).getByTestId('file-option-name'), { target: { value: 'Manual' } });
    pick(added, new NodeFile(['doc'], 'manual.docx', { type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' }));
    fireEvent.click(within(dialog).getByTestId('file-list-save'));

    await waitFor(() => expect(writes()).toHaveLength(2));
    expect(writes()[0]).toMatchObject({
      method: 'PUT',
      path: '/files/1',
      body: { name: 'Catálogos', message: 'Mensagem nova no servidor', options: [{ id: 7, name: 'Tabela' }, { name: 'Manual' }] },
    });
    expect(writes()[1].form).toEqual({
      typeArch: ['fileList'],
      fileId: ['1'],
      id: ['7', '20'],
      mediaType: ['application/pdf', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      files: ['tabela-2027.pdf', 'manual.docx'],
    });
    await r.findByText(DONE);
    await waitFor(() => expect(r.queryByTestId('file-list-dialog')).toBeNull());
    expect(
      within(rowOf(r, 1))
        .getAllByTestId('file-list-option-download')
        .map((b) => b.textContent),
    ).toEqual(['Tabela', 'Manual']);
  });

  it('a refused file keeps the dialog with the server’s reason; saving again updates the saved list and uploads again', async () => {
    let refuse = true;
    answer = (method, path) =>
      path.startsWith('/files/uploadList/') && refuse
        ? {
            status: 400,
            body: { error: 'ERR_VALIDATION', message: 'x', details: [{ field: 'files', messages: ['Tipo de arquivo não permitido'] }] },
          }
        : undefined;
    const r = await loaded();
    const dialog = await openAdd(r);
    fireEvent.change(within(dialog).getByTestId('file-list-name'), { target: { value: 'Programas' } });
    fireEvent.change(within(dialog).getByTestId('file-list-message'), { target: { value: 'Instale' } });
    fireEvent.click(within(dialog).getByTestId('file-option-add'));
    fireEvent.change(within(dialog).getByTestId('file-option-name'), { target: { value: 'Instalador' } });
    pick(within(dialog).getByTestId('file-option'), new NodeFile(['MZ'], 'setup.exe', { type: 'application/x-msdownload' }));
    fireEvent.click(within(dialog).getByTestId('file-list-save'));

    await waitFor(() => expect(within(dialog).getByTestId('file-list-files-error').textContent).toBe('Tipo de arquivo não permitido'));
    expect(r.getByTestId('file-list-dialog')).toBeTruthy();
    expect(writes().map((c) => `${c.method} ${c.path}`)).toEqual(['POST /files', 'POST /files/uploadList/30']);

    refuse = false;
    pick(within(dialog).getByTestId('file-option'), new NodeFile(['%PDF'], 'manual.pdf', { type: 'application/pdf' }));
    expect(within(dialog).queryByTestId('file-list-files-error')).toBeNull();
    fireEvent.click(within(dialog).getByTestId('file-list-save'));
    await r.findByText(DONE);
    expect(writes().map((c) => `${c.method} ${c.path}`)).toEqual([
      'POST /files',
      'POST /files/uploadList/30',
      'PUT /files/30',
      'POST /files/uploadList/30',
    ]);
    expect(writes()[2].body).toEqual({ name: 'Programas', message: 'Instale', options: [{ id: 20, name: 'Instalador' }] });
    expect(writes()[3].form).toMatchObject({ id: ['20'], files: ['manual.pdf'] });
  });

  it('a delete asks first, then sends DELETE /files/{id} and the row goes', async () => {
    const r = await loaded();
    fireEvent.click(within(rowOf(r, 2)).getByTestId('file-list-delete'));
    const confirm = await waitFor(() => r.getByTestId('confirm-dialog'));
    expect(confirm.textContent).toContain('Excluir Contratos?');
    expect(writes()).toHaveLength(0);
    fireEvent.click(within(confirm).getByTestId('confirm-ok'));
    await waitFor(() => expect(writes()).toEqual([expect.objectContaining({ method: 'DELETE', path: '/files/2' })]));
    await r.findByText(DONE);
    await waitFor(() => expect(rowNames(r)).toEqual(['Catálogos']));
    expect(r.getByTestId('files-count').textContent).toBe('(1)');
  });

  it("a refused delete says 'Não foi possível realizar a operação.' and keeps the row", async () => {
    answer = (method) => (method === 'DELETE' ? { status: 500, body: { error: 'ERR_INTERNAL', message: 'boom' } } : undefined);
    const r = await loaded();
    fireEvent.click(within(rowOf(r, 2)).getByTestId('file-list-delete'));
    fireEvent.click(within(await waitFor(() => r.getByTestId('confirm-dialog'))).getByTestId('confirm-ok'));
    await r.findByText(DELETE_FAILED);
    expect(rowNames(r)).toEqual(['Catálogos', 'Contratos']);
  });

  it("a list that cannot be loaded says 'Não foi possível carregar a lista de registros'", async () => {
    answer = (method, path) =>
      method === 'GET' && path === '/files' ? { status: 500, body: { error: 'ERR_INTERNAL', message: 'boom' } } : undefined;
    const r = renderAs();
    await r.findByText(LOAD_FAILED);
    expect(rows(r)).toHaveLength(0);
  });

  it('follows company-<id>-files: a saved list appears or changes, a deleted one goes, without loading again', async () => {
    const r = await loaded();
    r.socket.fire('company-1-files', { action: 'update', fileList: aFileList(5, 'Brindes') });
    await waitFor(() => expect(rowNames(r)).toEqual(['Brindes', 'Catálogos', 'Contratos']));
    expect(r.getByTestId('files-count').textContent).toBe('(3)');
    r.socket.fire('company-1-files', { action: 'update', fileList: { ...lists[1], message: 'Atualizada' } });
    await waitFor(() => expect(within(rowOf(r, 2)).getByTestId('file-list-message-cell').textContent).toBe('Atualizada'));
    r.socket.fire('company-1-files', { action: 'delete', fileListId: 1 });
    await waitFor(() => expect(rowNames(r)).toEqual(['Brindes', 'Contratos']));
    expect(listLoads()).toHaveLength(1);
  });

  it('is an admin screen: others go to the tickets', async () => {
    const r = renderAs('user');
    await waitFor(() => r.getByTestId('tickets'));
    expect(listLoads()).toHaveLength(0);
  });
});
