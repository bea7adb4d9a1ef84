import { Injectable, Logger } from '@nestjs/common';
import { SocketChannels, type AnnouncementEvent } from '@wa/contracts';
import type { BusMessage } from '@wa/event-bus';
import { Rooms } from '../../realtime/rooms.js';
import { isId, type Emission } from '../emission.js';

export const ANNOUNCEMENTS_FILTER = 'company.announcement.>';

/**
 * auth's `company.announcement.updated|deleted.<id>` → `company-announcement` to every socket (spec 02
 * "Announcements": the top bar's popover of every user). Which of them a user may see (the active ones, or
 * all for super users) the client's list decides by asking the API again; the payload carries the announcement.
 */
@Injectable()
export class AnnouncementsConsumer {
  private readonly log = new Logger(AnnouncementsConsumer.name);

  emissions(msg: BusMessage<unknown>): Emission[] {
    const e = msg.data as AnnouncementEvent;
    const ok = e?.action === 'delete' ? isId(e.announcementId) : e?.action === 'update' && isId(e.announcement?.id);
    if (!ok) {
      this.log.warn({ subject: msg.subject, seq: msg.streamSeq }, 'event not fanned out: bad announcement event');
      return [];
    }
    return [{ rooms: [Rooms.platform()], channel: SocketChannels.announcement(), payload: e }];
  }
}
