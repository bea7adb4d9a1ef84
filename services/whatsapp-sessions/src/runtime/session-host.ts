import type { ConnectionEntity } from '../database/entities/connection.entity.js';

/** Injection token of the sessions' host as placement sees it (the runner: `useExisting: SessionRunner`). */
export const SESSION_HOST = Symbol('SessionHost');

/**
 * What placement sees of the process running sessions: which run here, and starting or stopping one, each
 * connection's starts and stops one at a time. Placement decides where sessions run (leases, claims, hand-back);
 * the host runs them and never asks why.
 */
export interface SessionHost {
  /** The connections whose sessions run in this process. */
  runningIds(): number[];
  /** The epoch of the lease the connection's session here runs under (undefined: it does not run here). */
  epochOf(connectionId: number): number | undefined;
  /**
   * Runs `fn` once every earlier start or stop of the connection here is done (a session being stopped too),
   * and no other runs meanwhile; `running`: its session runs here now.
   */
  exclusive<T>(connectionId: number, fn: (running: boolean) => Promise<T>): Promise<T>;
  /**
   * Starts the connection's session here; its lease is ours, taken at `epoch` (within `exclusive`). `fresh`: a new
   * pairing.
   */
  launch(row: ConnectionEntity, opts: { fresh: boolean; epoch: number }): Promise<void>;
  /**
   * Stops the connection's session here, if it runs (within `exclusive`), its stored status kept (another process
   * resumes it); `release`: hands its lease back (else the lease is already another's).
   */
  stop(connectionId: number, opts: { release: boolean }): Promise<void>;
}
