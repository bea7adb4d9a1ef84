import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, waitFor, within } from '@testing-library/react';
import type { MessageDto, UserDto } from '@wa/contracts';
import { changeLanguage } from '../../../app/i18n';
import { sessionStarted } from '../../../app/session';
import { makeStore } from '../../../app/store';
import { aMessage } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { messageTypesApi } from '../message-types.api';
import { MessagesList } from '../MessagesList';

/** The chat's rendering of voice notes, places, contact cards and reactions (issue 45 §4), and the reaction picker. */

const realFetch = globalThis.fetch;
let messages: MessageDto[];
const calls: Array<{ method: string; path: string; body: unknown }> = [];

const realObjectUrl = URL.createObjectURL;
beforeEach(() => {
  calls.length = 0;
  URL.createObjectURL = (() => 'blob:voice-note') as typeof URL.createObjectURL;
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    const url = new URL(req.url);
    const type = req.headers.get('content-type') ?? '';
    const body = req.method === 'GET' ? undefined : type.includes('json') ? await req.clone().json() : await req.clone().formData();
    calls.push({ method: req.method, path: url.pathname, body });
    if (url.pathname.startsWith('/media/')) return new Response(new Blob([new Uint8Array(16)], { type: 'audio/ogg' }), { status: 200 });
    const react = /^\/messages\/(\d+)\/react$/.exec(url.pathname);
    if (react) {
      const emoji = (body as { emoji: string }).emoji;
      const m = messages.find((x) => x.id === Number(react[1])) as MessageDto;
      const others = (m.reactions ?? []).filter((r) => !r.fromMe);
      const reactions = emoji ? [...others, { emoji, fromMe: true, from: '' }] : others;
      return json({ ...m, reactions });
    }
    if (/^\/messages\/\d+$/.test(url.pathname) && req.method === 'POST')
      return json(aMessage({ id: 99, mediaType: 'audio', mediaUrl: '/media/1/x/voz.ogg', voice: true, body: '' }), 201);
    if (url.pathname === '/messages/1') return json({ messages, hasMore: false, nextCursor: null });
    return json({ error: 'ERR_NOT_FOUND' }, 404);
  }) as unknown as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
  URL.createObjectURL = realObjectUrl;
  void changeLanguage('pt');
});

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function renderList(onReply?: (m: MessageDto) => void) {
  const store = makeStore();
  store.dispatch(sessionStarted({ token: 't', user: { id: 7, name: 'Ana', companyId: 1, profile: 'user' } as unknown as UserDto }));
  return { ...renderWithProviders(<MessagesList ticketId={1} contactName="Maria" onReply={onReply} />, { store }), store };
}

const bubble = (all: HTMLElement[], id: number) => all.find((b) => b.dataset.messageId === String(id)) as HTMLElement;

describe('message types in the chat', () => {
  it('shows a voice note with a microphone, a place as a card with a map link, contact cards with their numbers', async () => {
    messages = [
      aMessage({ id: 1, fromMe: false, mediaType: 'audio', mediaUrl: '/media/1/a/voz.ogg', body: '', voice: true }),
      aMessage({ id: 2, fromMe: false, mediaType: 'audio', mediaUrl: '/media/1/b/musica.mp3', body: '' }),
      aMessage({
        id: 3,
        fromMe: false,
        mediaType: 'locationMessage',
        body: '-23.5613,-46.6565',
        location: { latitude: -23.5613, longitude: -46.6565, name: 'MASP', address: 'Av. Paulista, 1578' },
      }),
      aMessage({
        id: 4,
        fromMe: false,
        mediaType: 'vcard',
        body: 'BEGIN:VCARD\nFN:João Silva\nEND:VCARD',
        contacts: [{ name: 'João Silva', numbers: ['5511912345678', '5511933334444'] }],
      }),
    ];
    const { findAllByTestId } = renderList();
    const all = await findAllByTestId('message');
    expect(all).toHaveLength(4);

    const voice = within(bubble(all, 1)).getByTestId('media-voice');
    expect(voice.textContent).toContain('Mensagem de voz');
    await waitFor(() => expect(within(voice).getByTestId('media-audio')).toBeTruthy());
    // an audio that is no voice note is a plain player
    expect(within(bubble(all, 2)).queryByTestId('media-voice')).toBeNull();

    const place = within(bubble(all, 3)).getByTestId('message-location');
    expect(place.textContent).toContain('MASP');
    expect(place.textContent).toContain('Av. Paulista, 1578');
    expect(within(place).getByTestId('message-location-link').getAttribute('href')).toBe('https://maps.google.com/?q=-23.5613,-46.6565');
    // the coordinates older clients read are not shown as text
    expect(within(bubble(all, 3)).queryByTestId('message-body')).toBeNull();

    const card = within(bubble(all, 4)).getByTestId('message-contact');
    expect(card.textContent).toContain('João Silva');
    expect(
      within(card)
        .getAllByTestId('message-contact-number')
        .map((n) => n.textContent),
    ).toEqual(['+5511912345678', '+5511933334444']);
    expect(within(bubble(all, 4)).queryByText(/BEGIN:VCARD/)).toBeNull();
  });

  it('a place without a name is "Localização"; in English "Location" and "Open in map"', async () => {
    messages = [aMessage({ id: 1, fromMe: false, mediaType: 'locationMessage', body: '1,2', location: { latitude: 1, longitude: 2 } })];
    await changeLanguage('en');
    const { findByTestId } = renderList();
    const place = await findByTestId('message-location');
    expect(place.textContent).toContain('Location');
    expect(place.textContent).toContain('Open in map');
  });

  it('shows reactions as a badge on the message they react to, not as messages of their own', async () => {
    messages = [
      aMessage({
        id: 1,
        fromMe: true,
        body: 'Seu pedido saiu',
        reactions: [
          { emoji: '❤️', fromMe: false, from: '5511999990001' },
          { emoji: '👍', fromMe: true, from: '' },
        ],
      }),
      aMessage({ id: 2, fromMe: false, body: 'Obrigada' }),
    ];
    const { findAllByTestId } = renderList();
    const all = await findAllByTestId('message');
    expect(all).toHaveLength(2);
    const badge = within(bubble(all, 1)).getByTestId('message-reactions');
    expect(badge.getAttribute('aria-label')).toBe('Reações: ❤️ 👍');
    expect(within(bubble(all, 2)).queryByTestId('message-reactions')).toBeNull();
  });

  it('reacts from the picker on a message (POST /messages/{id}/react), and picking our emoji again takes it away', async () => {
    messages = [aMessage({ id: 1, fromMe: false, body: 'Chegou?' })];
    const { findByTestId, findAllByTestId, queryByTestId } = renderList(() => undefined);
    fireEvent.click(await findByTestId('message-react'));
    fireEvent.click(await findByTestId('react-👍'));
    await waitFor(() => expect(calls.map((c) => `${c.method} ${c.path}`)).toContain('POST /messages/1/react'));
    expect(calls.find((c) => c.path === '/messages/1/react')).toMatchObject({ method: 'POST', body: { emoji: '👍' } });
    const badge = await findByTestId('message-reactions');
    expect(badge.getAttribute('aria-label')).toBe('Reações: 👍');

    messages = [aMessage({ id: 1, fromMe: false, body: 'Chegou?', reactions: [{ emoji: '👍', fromMe: true, from: '' }] })];
    fireEvent.click((await findAllByTestId('message-react'))[0] as HTMLElement);
    const again = await findByTestId('react-👍');
    expect(again.getAttribute('aria-label')).toBe('Remover a reação 👍');
    fireEvent.click(again);
    await waitFor(() => expect(calls.filter((c) => c.path === '/messages/1/react')).toHaveLength(2));
    expect(calls.filter((c) => c.path === '/messages/1/react')[1]).toMatchObject({ body: { emoji: '' } });
    await waitFor(() => expect(queryByTestId('message-reactions')).toBeNull());
  });

  it('offers no reaction picker in a chat that is only looked at', async () => {
    messages = [aMessage({ id: 1, fromMe: false, body: 'Oi' })];
    const { findAllByTestId, queryByTestId } = renderList();
    await findAllByTestId('message');
    expect(queryByTestId('message-react')).toBeNull();
  });
});

describe('voice notes from the console', () => {
  it('sends the recording as a voice note: multipart with voice=true and the audio in medias', async () => {
    messages = [];
    const store = makeStore();
    store.dispatch(sessionStarted({ token: 't', user: { id: 7, name: 'Ana', companyId: 1, profile: 'user' } as unknown as UserDto }));
    // Node's own FormData and File (jsdom's cannot travel in Node's fetch Request), as the browser's would
    const sample = await new Response('x=1', { headers: { 'content-type': 'application/x-www-form-urlencoded' } }).formData();
    const NodeFormData = sample.constructor as typeof FormData;
    const holder = new NodeFormData();
    holder.append('f', await new Response(new Uint8Array(20_000)).blob(), 'audio-1.mp3');
    const file = holder.get('f') as File;
    const jsdomFormData = globalThis.FormData;
    globalThis.FormData = NodeFormData;
    let sent: MessageDto;
    try {
      sent = await store.dispatch(messageTypesApi.endpoints.sendVoiceNote.initiate({ ticketId: 5, file, quotedId: 3 })).unwrap();
    } finally {
      globalThis.FormData = jsdomFormData;
    }
    expect(sent).toMatchObject({ voice: true, mediaType: 'audio' });
    const call = calls.find((c) => c.path === '/messages/5');
    expect(call?.method).toBe('POST');
    const form = call?.body as FormData;
    expect(form.get('voice')).toBe('true');
    expect(form.get('quotedMsg')).toBe(JSON.stringify({ id: 3 }));
    expect((form.get('medias') as File).name).toBe('audio-1.mp3');
  });
});
