import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, waitFor, within } from '@testing-library/react';
import type { HelpDto, HelpsPage as HelpsPageDto, UserDto } from '@wa/contracts';
import { sessionStarted } from '../../../app/session';
import { makeStore } from '../../../app/store';
import { renderWithProviders } from '../../../test/render';
import { mockScrollBox } from '../../../test/scroll-box';
import HelpsPage from '../HelpsPage';

const realFetch = globalThis.fetch;
let calls: Array<{ method: string; path: string; query: Record<string, string> }> = [];
let pages: HelpsPageDto[] = [];

const aHelp = (id: number, title: string, video: string, description = ''): HelpDto => ({
  id,
  title,
  description,
  video,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
});

const agent: UserDto = {
  id: 5,
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
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
};

beforeEach(() => {
  calls = [];
  pages = [
    {
      helps: [aHelp(1, 'Conectando o WhatsApp', 'dQw4w9WgXcQ', 'Leia o QR code pelo celular.'), aHelp(2, 'Criando filas', 'xyz_123-AB')],
      count: 3,
      hasMore: true,
    },
    { helps: [aHelp(3, 'Respostas rápidas', 'abcDEF12345')], count: 3, hasMore: false },
  ];
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    const url = new URL(req.url);
    calls.push({ method: req.method, path: url.pathname, query: Object.fromEntries(url.searchParams) });
    let body: unknown = {};
    if (url.pathname === '/helps')
      body = pages[Number(url.searchParams.get('pageNumber') ?? '1') - 1] ?? { helps: [], count: 0, hasMore: false };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
});

function renderPage() {
  const store = makeStore();
  store.dispatch(sessionStarted({ token: 't', user: agent }));
  return renderWithProviders(<HelpsPage />, { store, route: '/helps' });
}

describe('/helps (spec 02 "Helps": video help for everyone)', () => {
  it('shows the title "Ajuda" and a card per help: its YouTube thumbnail (alt: the title), title and description', async () => {
    const r = renderPage();
    expect(r.getByTestId('helps-title').textContent).toBe('Ajuda');
    const card = await waitFor(() => r.getByTestId('help-card-1'));
    const thumb = within(card).getByRole('img') as HTMLImageElement;
    expect(thumb.getAttribute('src')).toBe('https://img.youtube.com/vi/dQw4w9WgXcQ/mqdefault.jpg');
    expect(thumb.getAttribute('alt')).toBe('Conectando o WhatsApp');
    expect(within(card).getByTestId('help-card-title').textContent).toBe('Conectando o WhatsApp');
    expect(within(card).getByTestId('help-card-description').textContent).toBe('Leia o QR code pelo celular.');
    const second = r.getByTestId('help-card-2');
    expect(within(second).getByAltText('Criando filas').getAttribute('src')).toBe('https://img.youtube.com/vi/xyz_123-AB/mqdefault.jpg');
    expect(within(r.getByTestId('helps-grid')).getAllByRole('button')).toHaveLength(2);
    expect(calls).toEqual([{ method: 'GET', path: '/helps', query: { pageNumber: '1' } }]);
  });

  it('a card is a button (Enter and Space open it from the keyboard) named after its video', async () => {
    const r = renderPage();
    const card = await waitFor(() => r.getByTestId('help-card-1'));
    expect(card.tagName).toBe('BUTTON');
    expect(card.getAttribute('type')).toBe('button');
    expect(card.getAttribute('aria-label')).toBe('Assistir: Conectando o WhatsApp');
    expect(r.getByRole('button', { name: 'Assistir: Criando filas' })).toBe(r.getByTestId('help-card-2'));
  });

  it('clicking a card opens the player with its video’s embed address; Escape closes it', async () => {
    const r = renderPage();
    fireEvent.click(await waitFor(() => r.getByTestId('help-card-2')));
    const player = await waitFor(() => r.getByTestId('help-player'));
    expect(within(player).getByText('Criando filas')).toBeTruthy();
    const frame = within(player).getByTestId('help-player-frame') as HTMLIFrameElement;
    expect(frame.tagName).toBe('IFRAME');
    expect(frame.getAttribute('src')).toBe('https://www.youtube.com/embed/xyz_123-AB?autoplay=1');
    expect(frame.getAttribute('title')).toBe('Criando filas');
    expect(frame.getAttribute('allow')).toBe('autoplay; encrypted-media; picture-in-picture');
    expect(frame.hasAttribute('allowfullscreen')).toBe(true);

    fireEvent.keyDown(player, { key: 'Escape', code: 'Escape' });
    await waitFor(() => expect(r.queryByTestId('help-player')).toBeNull());
    expect(r.queryByTitle('Criando filas')).toBeNull();

    // another card plays its own video
    fireEvent.click(r.getByTestId('help-card-1'));
    const again = await waitFor(() => r.getByTestId('help-player'));
    expect(within(again).getByTestId('help-player-frame').getAttribute('src')).toBe('https://www.youtube.com/embed/dQw4w9WgXcQ?autoplay=1');
    fireEvent.click(within(again).getByTestId('help-player-close'));
    await waitFor(() => expect(r.queryByTestId('help-player')).toBeNull());
  });

  it('loads the next page when scrolled within 100 px of the bottom (spec 02 §9), not with a button', async () => {
    const box = mockScrollBox('helps-page', { scrollHeight: 1000, clientHeight: 400 });
    try {
      const r = renderPage();
      await waitFor(() => r.getByTestId('help-card-2'));
      expect(r.queryByTestId('helps-more')).toBeNull();
      const page = r.getByTestId('helps-page');
      box.scrollTo(page, 450); // 150 px from the bottom
      await new Promise((done) => setTimeout(done, 50));
      expect(calls.map((c) => c.query.pageNumber)).toEqual(['1']);
      box.scrollTo(page, 520); // 80 px from the bottom
      await waitFor(() => r.getByTestId('help-card-3'));
      expect(r.getByTestId('help-card-1')).toBeTruthy();
      expect(calls.map((c) => c.query.pageNumber)).toEqual(['1', '2']);
    } finally {
      box.restore();
    }
  });

  it('says so when there are no helps', async () => {
    pages = [{ helps: [], count: 0, hasMore: false }];
    const r = renderPage();
    const empty = await waitFor(() => r.getByTestId('helps-empty'));
    expect(empty.textContent).toBe('Nenhum vídeo de ajuda disponível.');
    expect(r.queryByTestId('helps-grid')).toBeNull();
    expect(r.queryByTestId('helps-more')).toBeNull();
  });
});
