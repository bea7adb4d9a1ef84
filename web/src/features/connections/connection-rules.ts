import type { ConnectionStatus } from '@wa/contracts';

export type SessionButton = 'qrcode' | 'tryAgain' | 'newQr' | 'disconnect' | 'connecting';

/** spec 01 §4 "Connection status": the buttons each state offers. */
export function sessionButtons(status: ConnectionStatus): SessionButton[] {
  switch (status) {
    case 'qrcode':
      return ['qrcode'];
    case 'DISCONNECTED':
      return ['tryAgain', 'newQr'];
    case 'CONNECTED':
    case 'PAIRING':
    case 'TIMEOUT':
      return ['disconnect'];
    case 'OPENING':
      return ['connecting'];
    default:
      return [];
  }
}

/** DD/MM/YYYY HH:mm in local time. */
export function dateTimeLabel(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getDate())}/${p(d.getMonth() + 1)}/${d.getFullYear()} ${p(d.getHours())}:${p(d.getMinutes())}`;
}
