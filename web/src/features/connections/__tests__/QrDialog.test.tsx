import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, waitFor } from '@testing-library/react';
import type { WhatsappDto } from '@wa/contracts';
import jsQR from 'jsqr';
import { useState } from 'react';
import { i18n } from '../../../app/i18n';
import { renderWithProviders } from '../../../test/render';
import { QrDialog } from '../QrDialog';

/** A pairing code shaped like Baileys' (ref, public keys, secret, comma-separated). */
const CODE =
  '2@Vh0l6SmJXuQxk1N7yqQmZ4Qm7oGSdBS6GmE4QWv9q3RpJr0t1Tq8e2Z5ZtB4Dc1c=,Wb6mGqfFwNj3RgY3HqSPDm0iCmqfPRu8L0QxU2VrU1o=,0x8SQGZk9X+dUMJvHj5nPfRqWz6bA3sD1eT2yU4iO7w=,QmFuYW5h';

/** Paints the dialog's SVG path onto a bitmap (4 px a module, white margin) and reads it back as a scanner would. */
function decode(svg: SVGElement): string | null {
  const [minX, , side] = (svg.getAttribute('viewBox') ?? '').split(' ').map(Number);
  const scale = 4;
  const px = side * scale;
  const rgba = new Uint8ClampedArray(px * px * 4).fill(255);
  const d = svg.querySelector('path')?.getAttribute('d') ?? '';
  for (const [, xs, ys] of d.matchAll(/M(\d+) (\d+)h1v1h-1z/g)) {
    const x0 = (Number(xs) - minX) * scale;
    const y0 = (Number(ys) - minX) * scale;
    for (let y = y0; y < y0 + scale; y++) {
      for (let x = x0; x < x0 + scale; x++) {
        const i = (y * px + x) * 4;
        rgba[i] = rgba[i + 1] = rgba[i + 2] = 0;
      }
    }
  }
  return jsQR(rgba, px, px)?.data ?? null;
}

/** The dialog as the connections page holds it: the connection changes as session updates arrive. */
let update: (w: WhatsappDto) => void = () => undefined;
function Host({ initial, onClose }: { initial: WhatsappDto; onClose(): void }) {
  const [w, setW] = useState(initial);
  update = setW;
  return <QrDialog whatsapp={w} onClose={onClose} />;
}

const connection = (patch: Partial<WhatsappDto>) => ({ id: 3, name: 'Vendas', status: 'qrcode', qrcode: CODE, ...patch }) as WhatsappDto;

describe('QR code dialog', () => {
  it('draws the pairing code as a QR code that a scanner reads back', async () => {
    const r = renderWithProviders(<QrDialog whatsapp={connection({})} onClose={() => undefined} />);
    const svg = (await waitFor(() => r.getByTestId('qr-image'))) as unknown as SVGElement;
    expect(decode(svg)).toBe(CODE);
  });

  it('draws a new code when the session sends another one', async () => {
    const r = renderWithProviders(<Host initial={connection({})} onClose={() => undefined} />);
    await waitFor(() => r.getByTestId('qr-image'));
    const next = `${CODE.slice(0, -4)}TWFy`;
    act(() => update(connection({ qrcode: next })));
    await waitFor(() => expect(decode(r.getByTestId('qr-image') as unknown as SVGElement)).toBe(next));
  });

  it('closes itself once the session reports an empty code (paired)', async () => {
    const onClose = jest.fn();
    const r = renderWithProviders(<Host initial={connection({})} onClose={onClose} />);
    await waitFor(() => r.getByTestId('qr-image'));
    expect(onClose).not.toHaveBeenCalled();
    act(() => update(connection({ status: 'CONNECTED', qrcode: '' })));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });
});

describe('QR code dialog: connecting with the phone number (the pairing code)', () => {
  const realFetch = globalThis.fetch;
  let asked: Array<{ path: string; body: unknown }> = [];
  /** what the server answers the next pairing-code request: status and body */
  let answer: { status: number; body: unknown } = { status: 200, body: { code: 'ABCD-1234' } };

  beforeEach(() => {
    asked = [];
    answer = { status: 200, body: { code: 'ABCD-1234' } };
    globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
      const req = input as Request;
      asked.push({ path: new URL(req.url).pathname, body: JSON.parse((await req.clone().text()) || 'null') });
      return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } });
    }) as unknown as typeof fetch;
  });
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  it('asks a code for the number typed (digits only) and shows it large with a copy button', async () => {
    const writeText = jest.fn(async (_text: string) => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const r = renderWithProviders(<QrDialog whatsapp={connection({})} onClose={() => undefined} />);
    fireEvent.click(await waitFor(() => r.getByRole('button', { name: 'Conectar com número de telefone' })));
    fireEvent.change(r.getByTestId('pairing-number'), { target: { value: '+55 (11) 99999-0000' } });
    fireEvent.click(r.getByRole('button', { name: 'Gerar código' }));

    expect((await waitFor(() => r.getByTestId('pairing-code'))).textContent).toBe('ABCD-1234');
    expect(asked).toEqual([{ path: '/whatsappsession/3/pairing-code', body: { number: '5511999990000' } }]);
    expect(r.getByTestId('pairing-code-box').textContent).toContain('Aparelhos conectados');
    fireEvent.click(r.getByRole('button', { name: 'Copiar' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('ABCD-1234'));
  });

  it("shows the server's error in the user's language when the connection is not waiting for a pairing", async () => {
    answer = { status: 400, body: { error: 'ERR_WAPP_NOT_INITIALIZED', message: 'not waiting' } };
    const r = renderWithProviders(<QrDialog whatsapp={connection({})} onClose={() => undefined} />);
    fireEvent.click(await waitFor(() => r.getByRole('button', { name: 'Conectar com número de telefone' })));
    const get = r.getByRole('button', { name: 'Gerar código' }) as HTMLButtonElement;
    // too short for a number with its country code: nothing asked
    fireEvent.change(r.getByTestId('pairing-number'), { target: { value: '9999' } });
    expect(get.disabled).toBe(true);
    fireEvent.change(r.getByTestId('pairing-number'), { target: { value: '5511999990000' } });
    fireEvent.click(get);
    const alert = await waitFor(() => r.getByRole('alert'));
    expect(alert.textContent).toBe(i18n.t('backendErrors.ERR_WAPP_NOT_INITIALIZED'));
    expect(r.queryByTestId('pairing-code')).toBeNull();
  });
});
