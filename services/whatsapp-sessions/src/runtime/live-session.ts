import type { ConnectionStatus } from '@wa/contracts';
import type { ProviderEventMap, SessionProvider } from './providers/provider.js';

/** Deliveries of received messages handled in one turn of a session's chain, and the turn's result for each of them. */
export interface UpsertTurn {
  upserts: Array<ProviderEventMap['messages']>;
  /** each upsert's failure (undefined: all its messages are on JetStream), in the order of `upserts` */
  done: Promise<Array<unknown>>;
}

/** A session running in this process: its provider and what the runtime keeps about it. */
export interface LiveSession {
  id: number;
  companyId: number;
  provider: SessionProvider;
  /** the epoch of the lease it runs under (the fencing token: see SessionLeases) */
  epoch: number;
  /** the status last stored */
  status: ConnectionStatus;
  /** reconnects since the session was last CONNECTED (stored as the connection's `retries`) */
  retries: number;
  /** QR codes shown since the session was last CONNECTED */
  qrCount: number;
  /** connection updates and received messages are handled one after the other, in order */
  chain: Promise<void>;
  /** received messages waiting on the chain for their turn: those that come meanwhile join them (one turn) */
  waitingUpserts?: UpsertTurn;
  /** ends the subscription to the session's commands */
  stopServing?: () => void;
  reconnectTimer?: NodeJS.Timeout;
  stopped: boolean;
  /** the teardown, once it began */
  ended?: Promise<void>;
}
