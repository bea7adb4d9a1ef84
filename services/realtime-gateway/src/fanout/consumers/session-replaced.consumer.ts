import { Injectable, Logger } from '@nestjs/common';
import { SocketChannels, type AuthChannelPayload, type SessionReplacedEvent } from '@wa/contracts';
import type { BusMessage } from '@wa/event-bus';
import { RealtimeEnv } from '../../config/env.js';
import { Rooms } from '../../realtime/rooms.js';
import { eventCompany, isId, type Emission } from '../emission.js';

/** `auth.session.replaced.<companyId>.<userId>` */
const COMPANY_INDEX = 3;

/**
 * A login ended older sessions of the same user → `company-<id>-auth` `sessionReplaced` to the sockets
 * of the ended sessions only (never the new login's), which are then disconnected after a grace period
 * in which the app shows "Sua conta foi acessada em outro computador.".
 */
@Injectable()
export class SessionReplacedConsumer {
  private readonly log = new Logger(SessionReplacedConsumer.name);

  constructor(private readonly env: RealtimeEnv) {}

  emissions(msg: BusMessage<unknown>): Emission[] {
    const companyId = eventCompany(msg.subject, COMPANY_INDEX, msg.data);
    const e = msg.data as SessionReplacedEvent;
    if (companyId === null || !isId(e.userId) || !Array.isArray(e.endedSessionIds)) {
      this.log.warn({ subject: msg.subject, seq: msg.streamSeq }, 'event not fanned out: bad sessionReplaced');
      return [];
    }
    const ended = [...new Set(e.endedSessionIds)].filter(
      (sid): sid is string => typeof sid === 'string' && sid.length > 0 && sid !== e.sessionId,
    );
    if (!ended.length) return [];
    const payload: AuthChannelPayload = { action: 'sessionReplaced', user: { id: e.userId } };
    return [
      {
        rooms: ended.map((sid) => Rooms.session(companyId, sid)),
        except: typeof e.sessionId === 'string' && e.sessionId ? [Rooms.session(companyId, e.sessionId)] : undefined,
        channel: SocketChannels.auth(companyId),
        payload,
        disconnectAfterMs: this.env.SESSION_ENDED_GRACE_MS,
      },
    ];
  }
}
