import { describe, expect, it, jest } from '@jest/globals';
import { act, waitFor } from '@testing-library/react';
import type { WhatsappDto } from '@wa/contracts';
import jsQR from 'jsqr';
import { useState } from 'react';
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
