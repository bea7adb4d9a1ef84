import type { ConnectionStatus } from './whatsapp.types.js';

/** A whatsapp-sessions replica, as the operators' view shows it (`GET /platform/sessions`). */
export interface SessionReplicaDto {
  /** stable name: `whatsapp-sessions-0` …, the pod's name in Kubernetes */
  name: string;
  pid: number;
  host: string;
  startedAt: string;
  /** sessions it may hold */
  capacity: number;
  /** sessions it holds now */
  load: number;
  /** handing its sessions over and taking none */
  draining: boolean;
  lastSeenAt: string;
  memoryMb: number;
}

/** A connection's session and its health, wherever it runs. */
export interface SessionConnectionDto {
  id: number;
  companyId: number;
  name: string;
  status: ConnectionStatus;
  /** the replica holding its session; null: none holds it now */
  replica: string | null;
  connectedSince: string | null;
  lastEventAt: string | null;
  reconnects: number;
  messagesIn: number;
  messagesOut: number;
  lastError: string | null;
}

/** `GET /platform/sessions`: every live replica, and a page of connections (100 a page). */
export interface PlatformSessionsPage {
  replicas: SessionReplicaDto[];
  connections: SessionConnectionDto[];
  count: number;
  hasMore: boolean;
}

/** `POST|DELETE /platform/sessions/replicas/{name}/drain`. */
export interface ReplicaDrainDto {
  name: string;
  draining: boolean;
}
