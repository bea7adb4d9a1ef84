import { describe, expect, it } from '@jest/globals';
import { decodeBrCode, encodeBrCode } from '@wa/domain';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { brCodeImage } from './qr-image.js';

/** What a phone's camera reads from the image: the PNG decoded to pixels, then the QR code found in them. */
function readQr(dataUrl: string): string | undefined {
  const png = PNG.sync.read(Buffer.from(dataUrl.slice('data:image/png;base64,'.length), 'base64'));
  // jsqr is CommonJS: its default export is `module.exports.default`
  return jsQR.default(new Uint8ClampedArray(png.data), png.width, png.height, { inversionAttempts: 'dontInvert' })?.data;
}

describe('brCodeImage', () => {
  it('draws a BR Code that a QR reader reads back to the same code', async () => {
    const code = encodeBrCode({
      key: 'financeiro@conversa.local',
      amountCents: 4990,
      merchantName: 'Conversa Plataforma',
      merchantCity: 'São Paulo',
      txid: 'inv42c7f3e9a01b',
    });
    const image = await brCodeImage(code);
    expect(image).toMatch(/^data:image\/png;base64,/);
    const read = readQr(image);
    expect(read).toBe(code);
    expect(decodeBrCode(read ?? '')).toMatchObject({ amountCents: 4990, txid: 'inv42c7f3e9a01b' });
  });

  it("draws the Banco Central manual's example and a long dynamic code alike", async () => {
    const manual =
      '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';
    const dynamic = encodeBrCode({
      url: 'pix.api.efipay.com.br/v2/loc/9f0c2a6d1b7e4c5fa3d2e8b1c0f9a7e6',
      amountCents: 123456,
      merchantName: 'Conversa Plataforma de Atendimento',
      merchantCity: 'Florianópolis',
      pointOfInitiation: '12',
    });
    expect(readQr(await brCodeImage(manual))).toBe(manual);
    expect(readQr(await brCodeImage(dynamic))).toBe(dynamic);
    // a different code makes a different image: the image is the code's, not a fixed picture
    expect(await brCodeImage(manual)).not.toBe(await brCodeImage(dynamic));
  });
});
