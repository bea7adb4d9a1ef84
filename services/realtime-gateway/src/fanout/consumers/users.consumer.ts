import { Injectable, Logger } from '@nestjs/common';
import { SocketChannels, type UserChangedEvent, type UserChannelPayload, type UserDeletedEvent } from '@wa/contracts';
import type { BusMessage } from '@wa/event-bus';
import { Rooms } from '../../realtime/rooms.js';
import { eventCompany, isId, type Emission } from '../emission.js';

/** `user.<verb>.<companyId>.<userId>` */
const COMPANY_INDEX = 2;
export const USERS_FILTER = 'user.>';

/**
 * auth's `user.created` / `user.updated` / `user.deleted` → `company-<id>-user` (spec 01 §4 "Live updates":
 * user update) to the company's sockets, so the users page and every user picker stay current. The
 * payload is the user as the users page lists it (no password, no token).
 */
@Injectable()
export class UsersConsumer {
  private readonly log = new Logger(UsersConsumer.name);

  emissions(msg: BusMessage<unknown>): Emission[] {
    const companyId = eventCompany(msg.subject, COMPANY_INDEX, msg.data);
    const verb = msg.subject.split('.')[1];
    const e = msg.data as UserChangedEvent & UserDeletedEvent;
    if (companyId === null || !isId(e.userId)) {
      this.log.warn({ subject: msg.subject, seq: msg.streamSeq }, 'event not fanned out: bad user event');
      return [];
    }
    let payload: UserChannelPayload;
    if (verb === 'deleted') payload = { action: 'delete', userId: e.userId };
    else if (verb === 'created' || verb === 'updated') {
      payload = {
        action: verb === 'created' ? 'create' : 'update',
        user: {
          id: e.userId,
          name: e.name,
          email: e.email,
          profile: e.profile,
          queueIds: e.queueIds ?? [],
          allTicket: e.allTicket === 'enabled' ? 'enabled' : 'desabled',
          super: !!e.super,
          companyId,
        },
      };
    } else return [];
    return [{ rooms: [Rooms.company(companyId)], channel: SocketChannels.user(companyId), payload }];
  }
}
