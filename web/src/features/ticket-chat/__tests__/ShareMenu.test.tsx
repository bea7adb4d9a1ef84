import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, waitFor } from '@testing-library/react';
import { renderWithProviders } from '../../../test/render';
import { aMessage } from '../../../test/fixtures';
import { coordinate, contactNumberOk, ShareMenu } from '../ShareMenu';

const realFetch = globalThis.fetch;
let posts: Array<{ url: string; body: unknown }> = [];
beforeEach(() => {
  posts = [];
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    posts.push({ url: req.url, body: await req.clone().json() });
    return new Response(JSON.stringify(aMessage({ id: 500, ticketId: 12 })), {
      status: 201,
      headers: { 'content-type': 'application/json' },
    });
  }) as unknown as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
});

describe('the share menu', () => {
  it('sends a place typed with a decimal comma; a latitude out of range is refused before anything is sent', async () => {
    const r = renderWithProviders(<ShareMenu ticketId={12} disabled={false} />);
    fireEvent.click(r.getByTestId('share'));
    fireEvent.click(await r.findByTestId('share-location'));
    await r.findByTestId('share-dialog');
    fireEvent.change(r.getByTestId('share-latitude'), { target: { value: '-123' } });
    fireEvent.change(r.getByTestId('share-longitude'), { target: { value: '-46.6576' } });
    fireEvent.click(r.getByTestId('share-send'));
    await r.findByText('Uma latitude entre -90 e 90');
    expect(posts).toHaveLength(0);
    fireEvent.change(r.getByTestId('share-latitude'), { target: { value: '-23,5874' } });
    fireEvent.change(r.getByTestId('share-name'), { target: { value: 'Parque Ibirapuera' } });
    fireEvent.click(r.getByTestId('share-send'));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0].url).toMatch(/\/messages\/12$/);
    expect(posts[0].body).toMatchObject({ location: { latitude: -23.5874, longitude: -46.6576, name: 'Parque Ibirapuera' } });
    await waitFor(() => expect(r.queryByTestId('share-dialog')).toBeNull());
  });

  it('sends a contact card with the number as digits; a name is required', async () => {
    const r = renderWithProviders(<ShareMenu ticketId={12} disabled={false} />);
    fireEvent.click(r.getByTestId('share'));
    fireEvent.click(await r.findByTestId('share-contact'));
    await r.findByTestId('share-dialog');
    fireEvent.change(r.getByTestId('share-number'), { target: { value: '+55 (11) 4000-5678' } });
    fireEvent.click(r.getByTestId('share-send'));
    await r.findByText('Obrigatório');
    expect(posts).toHaveLength(0);
    fireEvent.change(r.getByTestId('share-name'), { target: { value: 'Financeiro' } });
    fireEvent.click(r.getByTestId('share-send'));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0].body).toMatchObject({ contact: { name: 'Financeiro', number: '551140005678' } });
  });

  it('reads coordinates and numbers as the server takes them', () => {
    expect(coordinate('-23,5', 90)).toBe(-23.5);
    expect(coordinate('180', 180)).toBe(180);
    expect(coordinate('91', 90)).toBeNull();
    expect(coordinate('', 90)).toBeNull();
    expect(coordinate('abc', 180)).toBeNull();
    expect(contactNumberOk('+55 (11) 4000-5678')).toBe(true);
    expect(contactNumberOk('123')).toBe(false);
  });
});
