import type { ConnectionStatus } from '@wa/contracts';
import type { MappingContext } from './providers/baileys/mapping.js';
import type { SessionProvider } from './providers/provider.js';

/** A session running in this process: its provider and what the runtime keeps about it. */
export interface LiveSession {
  id: number;
  companyId: number;
  ctx: MappingContext;
  provider: SessionProvider;
  /** the status last stored */
  status: ConnectionStatus;
  /** reconnects since the session was last CONNECTED (stored as the connection's `retries`) */
  retries: number;
  /** QR codes shown since the session was last CONNECTED */
  qrCount: number;
  /** connection updates and received messages are handled one after the other, in order */
  chain: Promise<void>;
  /** ends the subscription to the session's commands */
  stopServing?: () => void;
  reconnectTimer?: NodeJS.Timeout;
  stopped: boolean;
  /** the teardown, once it began */
  ended?: Promise<void>;
}
