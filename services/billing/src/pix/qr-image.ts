import QRCode from 'qrcode';

/**
 * The QR image of a BR Code, as the checkout shows it (`imagemQrcode`): a PNG data URL, error correction M (what
 * Pix QR codes use: a scratched or partly covered code still reads), 4 modules of quiet zone, 8 pixels a module.
 */
export function brCodeImage(code: string): Promise<string> {
  return QRCode.toDataURL(code, { errorCorrectionLevel: 'M', type: 'image/png', margin: 4, scale: 8 });
}
