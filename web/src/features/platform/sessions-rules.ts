import type { ConnectionStatus, SessionReplicaDto } from '@wa/contracts';
import { format } from 'date-fns';

/** The server's page of connections (issue 43 §5: 100 a page; the replicas always come whole). */
export const SESSIONS_PAGE_SIZE = 100;
/** The view is live by polling: every replica's heartbeat and every connection's health change without events to the browser. */
export const SESSIONS_POLL_MS = 5000;

/** The statuses a connection's session can be in, in the order the status filter offers them. */
export const CONNECTION_STATUSES: readonly ConnectionStatus[] = ['CONNECTED', 'OPENING', 'qrcode', 'PAIRING', 'DISCONNECTED', 'TIMEOUT'];

/** A status badge's colour: green is healthy, red is down, the rest is on its way or waiting for someone. */
export const STATUS_PALETTE: Record<ConnectionStatus, string> = {
  CONNECTED: 'green',
  OPENING: 'blue',
  qrcode: 'yellow',
  PAIRING: 'blue',
  DISCONNECTED: 'red',
  TIMEOUT: 'orange',
};

/** The filters as the operator typed or picked them ('' is no filter). */
export interface SessionsFilters {
  companyId: string;
  replica: string;
  status: ConnectionStatus | '';
}

/** `GET /platform/sessions`' query: only the filters set, and the page. */
export interface SessionsViewArg {
  companyId?: number;
  replica?: string;
  status?: ConnectionStatus;
  pageNumber: number;
}

export const NO_FILTERS: SessionsFilters = { companyId: '', replica: '', status: '' };

/** The query for the filters and the page; a company id that is not a whole number above 0 is no filter (the server would refuse it). */
export function sessionsViewArg(filters: SessionsFilters, pageNumber: number): SessionsViewArg {
  const arg: SessionsViewArg = { pageNumber };
  const company = filters.companyId.trim();
  if (/^\d+$/.test(company) && Number(company) > 0) arg.companyId = Number(company);
  if (filters.replica) arg.replica = filters.replica;
  if (filters.status) arg.status = filters.status;
  return arg;
}

/** Pages of connections for `count` of them (at least one: an empty list is page 1 of 1). */
export function pageCount(count: number): number {
  return Math.max(1, Math.ceil(count / SESSIONS_PAGE_SIZE));
}

/** A replica's load as a share of its capacity, 0–100 (a replica with no capacity and sessions is full). */
export function loadPercent(r: Pick<SessionReplicaDto, 'load' | 'capacity'>): number {
  if (r.capacity <= 0) return r.load > 0 ? 100 : 0;
  return Math.min(100, Math.round((r.load / r.capacity) * 100));
}

/** The load bar's colour: teal up to 80 %, orange up to 95 %, red above (no room for another replica's failover). */
export function loadPalette(percent: number): string {
  if (percent > 95) return 'red';
  if (percent > 80) return 'orange';
  return 'teal';
}

/** HH:mm:ss on this browser's clock (a heartbeat's time: minutes are too coarse); empty for a value that is not a time. */
export function clockLabel(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : format(d, 'HH:mm:ss');
}
