import { Injectable, Logger } from '@nestjs/common';
import {
  SocketChannels,
  type ConnectionChangedEvent,
  type ConnectionDeletedEvent,
  type ConnectionSessionEvent,
  type WhatsappChannelPayload,
  type WhatsappSessionChannelPayload,
} from '@wa/contracts';
import { withoutConnectionSecrets } from '@wa/auth';
import type { BusMessage } from '@wa/event-bus';
import { Rooms } from '../../realtime/rooms.js';
import { eventCompany, isId, type Emission } from '../emission.js';

/** CONNECTIONS subjects: `connection.<verb>.<companyId>.<connectionId>`. */
const COMPANY_INDEX = 2;

/** One connection's record and session changes go out in order. */
export function connectionsOrderKey(subject: string): string {
  const [, , companyId, connectionId] = subject.split('.');
  return `${companyId}.${connectionId}`;
}

/**
 * Connection records and session states → `-whatsapp` and `-whatsappSession`, to every socket of the company:
 * admins and super users (their own room) get them whole; everyone else, supervisors too, without the API
 * token and the QR code (as HTTP answers them).
 */
@Injectable()
export class ConnectionsConsumer {
  private readonly log = new Logger(ConnectionsConsumer.name);

  emissions(msg: BusMessage<unknown>): Emission[] {
    const companyId = eventCompany(msg.subject, COMPANY_INDEX, msg.data);
    if (companyId === null) return this.skip(msg, 'no company');
    const rooms = [Rooms.company(companyId)];
    switch (msg.subject.split('.')[1]) {
      case 'updated': {
        const { connection } = msg.data as ConnectionChangedEvent;
        if (!connection || !isId(connection.id)) return this.skip(msg, 'bad connection');
        const channel = SocketChannels.whatsapp(companyId);
        return bySecrecy(companyId, channel, connection, (whatsapp): WhatsappChannelPayload => ({ action: 'update', whatsapp }));
      }
      case 'deleted': {
        const { connectionId } = msg.data as ConnectionDeletedEvent;
        if (!isId(connectionId)) return this.skip(msg, 'bad connection id');
        const payload: WhatsappChannelPayload = { action: 'delete', whatsappId: connectionId };
        return [{ rooms, channel: SocketChannels.whatsapp(companyId), payload }];
      }
      case 'session': {
        const { session, reason } = msg.data as ConnectionSessionEvent;
        if (!session || !isId(session.id)) return this.skip(msg, 'bad session');
        const channel = SocketChannels.whatsappSession(companyId);
        // the admins learn live why WhatsApp ended it (a logout, a ban, another client took the session)
        return bySecrecy(companyId, channel, session, (s): WhatsappSessionChannelPayload => ({
          action: 'update',
          session: s,
          ...(reason ? { reason } : {}),
        }));
      }
      default:
        return [];
    }
  }

  private skip(msg: BusMessage<unknown>, why: string): Emission[] {
    this.log.warn({ subject: msg.subject, seq: msg.streamSeq, why }, 'event not fanned out');
    return [];
  }
}

/** One change as two emits: whole to the admins' room, without token and QR code to the rest of the company. */
function bySecrecy<C extends { token: string | null; qrcode: string }>(
  companyId: number,
  channel: string,
  connection: C,
  payload: (c: C) => unknown,
): Emission[] {
  const admins = Rooms.admins(companyId);
  return [
    { rooms: [admins], channel, payload: payload(connection) },
    { rooms: [Rooms.company(companyId)], except: [admins], channel, payload: payload(withoutConnectionSecrets(connection)) },
  ];
}
