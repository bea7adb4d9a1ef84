import type { Server, Socket } from 'socket.io';
import type { TicketVisibility } from './rooms.js';

/** What the server knows of a socket: set at the handshake from the verified token, never from the client. */
export interface RealtimeSocketData {
  companyId: number;
  userId: number;
  sessionId: string;
  /** the access token of the handshake, forwarded to tickets for chat box checks */
  token: string;
  /** when the token was signed and when it expires (ms): the socket ends with it */
  tokenSignedAt: number;
  tokenExpiresAt: number;
  visibility: TicketVisibility;
  /** the permission rooms joined for `visibility` */
  permissionRooms: string[];
  /** the directory change counter of this user when the handshake read the directory */
  directorySeq: number;
  /** chat box rooms, oldest first */
  chatRooms: string[];
  lastHeartbeatAt: number;
  /** start of the current chat box lookup window and the lookups made in it */
  lookupWindowAt: number;
  lookups: number;
}

type AnyEvents = Record<string, (...args: any[]) => void>;

export type RealtimeIo = Server<AnyEvents, AnyEvents, AnyEvents, RealtimeSocketData>;
export type RealtimeSocket = Socket<AnyEvents, AnyEvents, AnyEvents, RealtimeSocketData>;
