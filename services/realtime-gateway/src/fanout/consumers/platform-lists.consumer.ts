import { Injectable, Logger } from '@nestjs/common';
import { SocketChannels, type PlatformListEvent } from '@wa/contracts';
import type { BusMessage } from '@wa/event-bus';
import { Rooms } from '../../realtime/rooms.js';
import { isId, type Emission } from '../emission.js';

/** auth's `company.created|updated|deleted.<companyId>`: three tokens, so no setting, schedule, announcement or help event. */
export const COMPANIES_FILTER = 'company.*.*';
/** auth's `company.help.updated|deleted.<helpId>` */
export const HELPS_FILTER = 'company.help.>';
/** billing's `plan.updated|deleted.<planId>` */
export const PLANS_FILTER = 'plan.>';

const ACTIONS: Record<string, PlatformListEvent['action']> = { created: 'create', updated: 'update', deleted: 'delete' };

/**
 * The platform's lists (spec 02 §3: "Company, plan and help lists refresh live (create, update, delete, reload)"):
 * which company, plan or help changed, to the sockets that show the list: companies and plans to super users (their
 * pages are theirs alone), helps to every socket (every user reads the helps page). The page reloads what it shows.
 */
@Injectable()
export class PlatformListsConsumer {
  private readonly log = new Logger(PlatformListsConsumer.name);

  companies(msg: BusMessage<unknown>): Emission[] {
    return this.emit(msg, 1, SocketChannels.companies(), Rooms.supers());
  }

  plans(msg: BusMessage<unknown>): Emission[] {
    return this.emit(msg, 1, SocketChannels.plans(), Rooms.supers());
  }

  helps(msg: BusMessage<unknown>): Emission[] {
    return this.emit(msg, 2, SocketChannels.helps(), Rooms.platform());
  }

  /** The action is the subject's token at `at`, the record's id the one after it. */
  private emit(msg: BusMessage<unknown>, at: number, channel: string, room: string): Emission[] {
    const tokens = msg.subject.split('.');
    const action = ACTIONS[tokens[at] ?? ''];
    const id = Number(tokens[at + 1]);
    if (!action || !isId(id) || tokens.length !== at + 2) {
      this.log.warn({ subject: msg.subject, seq: msg.streamSeq }, 'event not fanned out: not a platform list change');
      return [];
    }
    const payload: PlatformListEvent = { action, id };
    return [{ rooms: [room], channel, payload }];
  }
}
