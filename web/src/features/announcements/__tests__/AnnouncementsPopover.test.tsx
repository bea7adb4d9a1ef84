import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, waitFor, within } from '@testing-library/react';
import type { AnnouncementDto, AnnouncementEvent, UserDto } from '@wa/contracts';
import { SocketChannels } from '@wa/contracts';
import { sessionStarted } from '../../../app/session';
import { clearSession, storeSession } from '../../../app/storage';
import { makeStore } from '../../../app/store';
import type { RealtimeClient } from '../../../realtime/realtime-client';
import { RealtimeContext } from '../../../realtime/RealtimeProvider';
import { useSocketCacheSync } from '../../../realtime/use-socket-cache-sync';
import { announcementsSocket } from '../announcements.socket';
import { renderWithProviders } from '../../../test/render';
import { AnnouncementsButton } from '../AnnouncementsButton';
import { anAnnouncement, aUser, withImage } from './an-announcement';

const PAGE = 20;
const realFetch = globalThis.fetch;
const realCreateObjectURL = URL.createObjectURL;
const realRevokeObjectURL = URL.revokeObjectURL;
let calls: Array<{ path: string; page: string | null; auth: string | null }> = [];
/** the server's announcements, newest first */
let server: AnnouncementDto[] = [];
/** what the server gives a user other than a super user */
let superUser = false;

beforeEach(() => {
  calls = [];
  superUser = false;
  // 25 announcements: 25 (newest, high, with an image) down to 1
  server = Array.from({ length: 25 }, (_, i) => {
    const id = 25 - i;
    // 25 high, 24 medium, 23 low, 22 high...
    return anAnnouncement(id, `Informativo ${id}`, { priority: ([2, 1, 3] as const)[id % 3] });
  });
  server[0] = withImage({ ...server[0], priority: 1, text: 'Linha 1\nLinha 2' }, 'aviso.png');
  URL.createObjectURL = (() => 'blob:announcement-25') as typeof URL.createObjectURL;
  URL.revokeObjectURL = () => undefined;
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    const url = new URL(req.url);
    calls.push({ path: url.pathname, page: url.searchParams.get('pageNumber'), auth: req.headers.get('authorization') });
    if (url.pathname.endsWith('/media')) return new Response('png-bytes', { status: 200, headers: { 'content-type': 'image/png' } });
    const seen = superUser ? server : server.filter((a) => a.status);
    const page = Number(url.searchParams.get('pageNumber') ?? '1');
    const body = { records: seen.slice((page - 1) * PAGE, page * PAGE), count: seen.length, hasMore: seen.length > page * PAGE };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
  URL.createObjectURL = realCreateObjectURL;
  URL.revokeObjectURL = realRevokeObjectURL;
  clearSession();
  for (const key of ['scrollHeight', 'clientHeight', 'scrollTop'])
    delete (HTMLElement.prototype as unknown as Record<string, unknown>)[key];
});

/** The popover's list has a layout: 2000 px of content in a 400 px box (jsdom has none). */
function giveTheListALayout() {
  const tops = new WeakMap<HTMLElement, number>();
  const isList = (el: HTMLElement) => el.dataset.testid === 'announcements-popover-list';
  const define = (name: string, descriptor: PropertyDescriptor) =>
    Object.defineProperty(HTMLElement.prototype, name, { configurable: true, ...descriptor });
  define('scrollHeight', {
    get(this: HTMLElement) {
      return isList(this) ? 2000 : 0;
    },
  });
  define('clientHeight', {
    get(this: HTMLElement) {
      return isList(this) ? 400 : 0;
    },
  });
  define('scrollTop', {
    get(this: HTMLElement) {
      return tops.get(this) ?? 0;
    },
    set(this: HTMLElement, v: number) {
      tops.set(this, v);
    },
  });
}

/** A socket stand-in: the test emits on a channel as the server would. */
function fakeSocket() {
  const handlers = new Map<string, Set<(p: unknown) => void>>();
  const client = {
    on(channel: string, handler: (p: unknown) => void) {
      if (!handlers.has(channel)) handlers.set(channel, new Set());
      handlers.get(channel)?.add(handler);
      return () => handlers.get(channel)?.delete(handler);
    },
    join: () => () => undefined,
  };
  const emit = (channel: string, payload: unknown) => act(() => handlers.get(channel)?.forEach((h) => h(payload)));
  return { client: client as unknown as RealtimeClient, emit };
}

function Live() {
  useSocketCacheSync(announcementsSocket);
  return null;
}

function renderFor(user: UserDto) {
  storeSession('session-token');
  const store = makeStore();
  store.dispatch(sessionStarted({ token: 'session-token', user }));
  const socket = fakeSocket();
  const r = renderWithProviders(
    <RealtimeContext.Provider value={socket.client}>
      <Live />
      <AnnouncementsButton />
    </RealtimeContext.Provider>,
    { store },
  );
  return { ...r, socket };
}

const agent = aUser({ profile: 'user', super: false });
const items = (r: ReturnType<typeof renderFor>) => r.queryAllByTestId('announcements-popover-item');
const itemIds = (r: ReturnType<typeof renderFor>) => items(r).map((i) => Number(i.getAttribute('data-id')));
const listLoads = () => calls.filter((c) => c.path === '/announcements');
const count = (r: ReturnType<typeof renderFor>) => r.queryByTestId('announcements-count')?.textContent ?? null;

async function openPopover(r: ReturnType<typeof renderFor>) {
  fireEvent.click(await waitFor(() => r.getByTestId('announcements-popover-button')));
  await waitFor(() => expect(items(r).length).toBeGreaterThan(0));
  return r.getByTestId('announcements-popover');
}

describe('the top bar announcements (spec 02 "Announcements", for everyone)', () => {
  it('the button shows how many are active, from the first page alone', async () => {
    const r = renderFor(agent);
    await waitFor(() => expect(count(r)).toBe('25'));
    expect(listLoads()).toEqual([{ path: '/announcements', page: '1', auth: 'Bearer session-token' }]);
    expect(r.queryByTestId('announcements-popover')).toBeNull();
  });

  it('opens with the newest first: priority colour, title, text and the image fetched with the token', async () => {
    giveTheListALayout();
    const r = renderFor(agent);
    const popover = await openPopover(r);
    expect(within(popover).getByText('Informativos')).toBeTruthy();
    expect(itemIds(r)).toEqual(Array.from({ length: 20 }, (_, i) => 25 - i));
    const first = items(r)[0];
    expect(first.getAttribute('data-color')).toBe('red');
    expect(within(first).getByTestId('announcements-popover-title').textContent).toBe('Informativo 25');
    expect(within(first).getByTestId('announcements-popover-priority').textContent).toBe('Alta');
    expect(within(first).getByTestId('announcements-popover-text').textContent).toBe('Linha 1\nLinha 2');
    const image = await waitFor(() => within(first).getByTestId('announcement-image'));
    expect(image.getAttribute('src')).toBe('blob:announcement-25');
    expect(image.getAttribute('alt')).toBe('aviso.png');
    const media = calls.find((c) => c.path === '/announcements/25/media');
    expect(media?.auth).toBe('Bearer session-token');
    // 24 is medium (orange), 23 low (grey); no image where there is none
    expect(items(r)[1].getAttribute('data-color')).toBe('orange');
    expect(items(r)[2].getAttribute('data-color')).toBe('gray');
    expect(within(items(r)[1]).queryByTestId('announcement-image')).toBeNull();
  });

  it('loads the next page when scrolled within 100 px of the bottom', async () => {
    giveTheListALayout();
    const r = renderFor(agent);
    await openPopover(r);
    await new Promise((done) => setTimeout(done, 50));
    expect(listLoads().map((c) => c.page)).toEqual(['1']);
    const list = r.getByTestId('announcements-popover-list');

    list.scrollTop = 1450; // 150 px from the bottom
    fireEvent.scroll(list);
    await new Promise((done) => setTimeout(done, 50));
    expect(listLoads().map((c) => c.page)).toEqual(['1']);

    list.scrollTop = 1550; // 50 px from the bottom
    fireEvent.scroll(list);
    await waitFor(() => expect(itemIds(r)).toHaveLength(25));
    expect(listLoads().map((c) => c.page)).toEqual(['1', '2']);
    expect(itemIds(r).slice(-2)).toEqual([2, 1]);
  });

  it('a super user sees only the active ones there, and their count', async () => {
    superUser = true;
    server = [anAnnouncement(3, 'Ativo novo'), anAnnouncement(2, 'Rascunho', { status: false }), anAnnouncement(1, 'Ativo antigo')];
    const r = renderFor(aUser());
    await waitFor(() => expect(count(r)).toBe('2'));
    await openPopover(r);
    expect(itemIds(r)).toEqual([3, 1]);
  });

  it('says so when there are none, with no badge', async () => {
    server = [];
    const r = renderFor(agent);
    fireEvent.click(await waitFor(() => r.getByTestId('announcements-popover-button')));
    expect((await waitFor(() => r.getByTestId('announcements-popover-empty'))).textContent).toBe('Nenhum informativo');
    expect(count(r)).toBeNull();
  });

  it('follows the live events: one made inactive leaves a user’s list, a deleted one leaves, a new one comes on top', async () => {
    server = [anAnnouncement(3, 'C', { priority: 1 }), anAnnouncement(2, 'B'), anAnnouncement(1, 'A')];
    const r = renderFor(agent);
    await openPopover(r);
    expect(itemIds(r)).toEqual([3, 2, 1]);
    expect(count(r)).toBe('3');
    const channel = SocketChannels.announcement();
    expect(channel).toBe('company-announcement');

    const inactive = { ...server[1], status: false };
    server = server.map((a) => (a.id === 2 ? inactive : a));
    const loads = listLoads().length;
    r.socket.emit(channel, { action: 'update', announcement: inactive } satisfies AnnouncementEvent);
    expect(itemIds(r)).toEqual([3, 1]);
    expect(count(r)).toBe('2');
    // then the list is fetched again, and stays so
    await waitFor(() => expect(listLoads().length).toBeGreaterThan(loads));
    await waitFor(() => expect(itemIds(r)).toEqual([3, 1]));

    server = server.filter((a) => a.id !== 3);
    r.socket.emit(channel, { action: 'delete', announcementId: 3 } satisfies AnnouncementEvent);
    expect(itemIds(r)).toEqual([1]);
    expect(count(r)).toBe('1');

    const fresh = anAnnouncement(4, 'Novo', { priority: 2 });
    server = [fresh, ...server];
    r.socket.emit(channel, { action: 'update', announcement: fresh } satisfies AnnouncementEvent);
    expect(itemIds(r)).toEqual([4, 1]);
    expect(items(r)[0].getAttribute('data-color')).toBe('orange');
    await waitFor(() => expect(count(r)).toBe('2'));

    // a change of text shows in place
    const edited = { ...fresh, title: 'Novo (corrigido)' };
    server = server.map((a) => (a.id === 4 ? edited : a));
    r.socket.emit(channel, { action: 'update', announcement: edited } satisfies AnnouncementEvent);
    expect(within(items(r)[0]).getByTestId('announcements-popover-title').textContent).toBe('Novo (corrigido)');
  });
});
