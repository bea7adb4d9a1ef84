import QRCode from 'qrcode';

export interface QrMatrix {
  /** modules per side */
  size: number;
  /** one SVG path drawing every dark module as a 1×1 square */
  path: string;
}

/** The pairing code as QR modules (error correction M, as WhatsApp's own QR), drawn as one SVG path. */
export function qrMatrix(text: string): QrMatrix {
  const { size, data } = QRCode.create(text, { errorCorrectionLevel: 'M' }).modules;
  const parts: string[] = [];
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) if (data[y * size + x]) parts.push(`M${x} ${y}h1v1h-1z`);
  }
  return { size, path: parts.join('') };
}
