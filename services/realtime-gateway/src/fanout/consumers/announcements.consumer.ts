import { Injectable, Logger } from '@nestjs/common';
import { SocketChannels, type AnnouncementEvent } from '@wa/contracts';
import type { BusMessage } from '@wa/event-bus';
import { Rooms } from '../../realtime/rooms.js';
import { isId, type Emission } from '../emission.js';

export const ANNOUNCEMENTS_FILTER = 'company.announcement.>';

/**
 * auth's `company.announcement.updated|deleted.<id>` → `company-announcement` (spec 02 "Announcements": the
 * top bar's popover of every user). An active announcement goes to every socket; an inactive one (a draft, or
 * one switched off) whole to the super users' sockets only, and to everyone else as a deletion (it leaves
 * their lists, as the API no longer answers it to them). A deletion goes to every socket.
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
    const channel = SocketChannels.announcement();
    if (e.action === 'update' && e.announcement.status !== true) {
      const gone: AnnouncementEvent = { action: 'delete', announcementId: e.announcement.id };
      return [
        { rooms: [Rooms.supers()], channel, payload: e },
        { rooms: [Rooms.platform()], except: [Rooms.supers()], channel, payload: gone },
      ];
    }
    return [{ rooms: [Rooms.platform()], channel, payload: e }];
  }
}
