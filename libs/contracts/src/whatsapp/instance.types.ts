import type { ConnectionStatus } from './whatsapp.types.js';

/**
 * The public API's instance control (`/api/v1/instance`, issue 45 §3): the connection whose API token calls it,
 * as Evolution API's integrators know an "instance". whatsapp-sessions answers; the gateway admits the token.
 */
export interface ApiInstanceDto {
  id: number;
  name: string;
  status: ConnectionStatus;
  /** the paired phone's number, null before a pairing */
  number: string | null;
  /** the QR code to scan while the session waits for one (status qrcode), null otherwise */
  qrcode: string | null;
  updatedAt: string;
}

/** `GET /api/v1/instance/qrcode`: the QR code to scan (the connection waits for a pairing), null while it is being made. */
export interface ApiInstanceQrcodeDto {
  status: ConnectionStatus;
  qrcode: string | null;
}

/** `POST /api/v1/instance/pairing-code` */
export interface ApiPairingCodeRequest {
  /** the phone's number: digits with the country code, 10 to 15 */
  number: string;
}

/** The code to type on the phone (WhatsApp > Linked devices > Link with phone number), as WhatsApp shows it: `XXXX-XXXX`. */
export interface ApiPairingCodeDto {
  pairingCode: string;
}

/** `POST /api/v1/instance/restart` and `/logout`: taken; the status follows (GET /api/v1/instance, `connection.status` webhooks). */
export interface ApiInstanceActionDto {
  message: string;
}
