import { Injectable, Logger } from '@nestjs/common';
import {
  type FileListEvent,
  type FilesChannelPayload,
  SocketChannels,
  type AppMessageChannelPayload,
  type ChatChangedEvent,
  type ChatChannelPayload,
  type ChatDeletedEvent,
  type ChatMessageEvent,
  type ContactChannelPayload,
  type ContactDeletedEvent,
  type ContactUpdatedEvent,
  type MessageBatchEvent,
  type MessageEvent,
  type QueueChangedEvent,
  type QueueChannelPayload,
  type QueueDeletedEvent,
  type ScheduleChannelPayload,
  type ScheduleDeletedEvent,
  type ScheduleUpdatedEvent,
  type TicketChannelPayload,
  type TicketDeletedEvent,
  type TicketUnreadEvent,
  type TicketUpdatedEvent,
} from '@wa/contracts';
import type { BusMessage } from '@wa/event-bus';
import { Rooms, ticketRooms, type TicketPlace } from '../../realtime/rooms.js';
import { TicketPlaces } from '../../realtime/ticket-places.js';
import { eventCompany, isId, optionalId, type Emission } from '../emission.js';

/** TICKETS subjects: `<kind>.<verb>.<companyId>.<id>`. */
const COMPANY_INDEX = 2;

/**
 * A company's tickets and messages share one order key, so they go out in the order published: a `message.batch`
 * holds many tickets' messages, and a ticket's own events must not overtake it (an agent's accept fanned out
 * before the customer's message that came first would be undone by the older ticket it carries).
 */
export function ticketsOrderKey(subject: string): string {
  const [kind, , companyId, id] = subject.split('.');
  return kind === 'ticket' || kind === 'message' ? `t.${companyId}` : `${kind}.${companyId}.${id}`;
}

const placeOf = (t: { queueId?: unknown; userId?: unknown }): TicketPlace => ({
  queueId: optionalId(t.queueId),
  userId: optionalId(t.userId),
});

/**
 * Ticket, message, contact, queue and schedule events of tickets → the company's `-ticket`, `-appMessage`,
 * `-contact`, `-queue` and `-schedule` channels. Ticket and message events go only to the rooms allowed to see the ticket (admins, its
 * queue, its owner); when a ticket leaves rooms (moved to another queue, another owner), those rooms
 * get `{action: "delete"}` so their lists drop it, as Whaticket does on a status or owner change.
 */
@Injectable()
export class TicketsConsumer {
  private readonly log = new Logger(TicketsConsumer.name);

  constructor(private readonly places: TicketPlaces) {}

  /** This replica starts to consume: what it remembers writing may have been overwritten by the one before. */
  leading(): void {
    this.places.resetMemo();
  }

  async emissions(msg: BusMessage<unknown>): Promise<Emission[]> {
    const companyId = eventCompany(msg.subject, COMPANY_INDEX, msg.data);
    const [kind, verb] = msg.subject.split('.');
    if (companyId === null) return this.skip(msg, 'no company');
    switch (`${kind}.${verb}`) {
      case 'ticket.updated':
        return this.ticketUpdated(companyId, msg.data as TicketUpdatedEvent, msg);
      case 'ticket.deleted':
        return this.ticketDeleted(companyId, msg.data as TicketDeletedEvent, msg);
      case 'ticket.unread':
        return this.ticketUnread(companyId, msg.data as TicketUnreadEvent, msg);
      case 'message.created':
      case 'message.updated':
        return this.message(companyId, verb === 'created' ? 'create' : 'update', msg.data as MessageEvent, msg);
      case 'message.batch':
        return this.messages(companyId, msg.data as MessageBatchEvent, msg);
      case 'contact.updated':
        return this.contactUpdated(companyId, msg.data as ContactUpdatedEvent, msg);
      case 'contact.deleted':
        return this.contactDeleted(companyId, msg.data as ContactDeletedEvent, msg);
      case 'queue.updated':
      case 'queue.deleted':
        return this.queue(companyId, verb, msg.data as QueueChangedEvent & QueueDeletedEvent, msg);
      case 'schedule.updated':
      case 'schedule.deleted':
        return this.schedule(companyId, verb, msg.data as ScheduleUpdatedEvent & ScheduleDeletedEvent, msg);
      case 'chat.updated':
      case 'chat.message':
      case 'chat.deleted':
        return this.chat(
          companyId,
          verb as 'updated' | 'message' | 'deleted',
          msg.data as ChatChangedEvent & ChatMessageEvent & ChatDeletedEvent,
          msg,
        );
      case 'files.updated':
      case 'files.deleted':
        return this.files(companyId, msg.data as FileListEvent, msg);
      default:
        return [];
    }
  }

  /** A file list changed: everyone of the company (the /files page, the campaign dialog's file list picker). */
  private files(companyId: number, e: FileListEvent, msg: BusMessage<unknown>): Emission[] {
    const ok = e.action === 'delete' ? isId(e.fileListId) : e.action === 'update' && isId(e.fileList?.id);
    if (!ok) return this.skip(msg, 'bad file list');
    const payload: FilesChannelPayload =
      e.action === 'delete' ? { action: 'delete', fileListId: e.fileListId } : { action: 'update', fileList: e.fileList };
    return [{ rooms: [Rooms.company(companyId)], channel: SocketChannels.files(companyId), payload }];
  }

  private async ticketUpdated(companyId: number, e: TicketUpdatedEvent, msg: BusMessage<unknown>): Promise<Emission[]> {
    const ticket = e.ticket;
    if (!ticket || !isId(ticket.id) || (ticket.companyId !== undefined && ticket.companyId !== companyId))
      return this.skip(msg, 'bad ticket');
    return this.ticketNow(companyId, ticket);
  }

  /**
   * A ticket as it now is, to the rooms allowed to see it: `{action: "update"}`, and `{action: "delete"}` to the
   * rooms it left (its place remembered per ticket). From `ticket.updated`, and from `message.created`, which
   * carries its ticket as the new message left it and is not followed by a `ticket.updated` (issue 44). For a new
   * message (`moved`), the update goes out only when the ticket is new here or changed place: the message's
   * `appMessage` create already carries the ticket to the same rooms, and the console takes it from there (its
   * last message, unread count, status and list order); a second broadcast of the same ticket would only cost.
   */
  private async ticketNow(companyId: number, ticket: TicketUpdatedEvent['ticket'], moved = false): Promise<Emission[]> {
    const place = placeOf(ticket);
    const before = await this.places.swap(companyId, ticket.id, place).catch((err: unknown) => this.cacheFailed(err));
    if (moved && before && before.queueId === place.queueId && before.userId === place.userId) return [];
    const rooms = ticketRooms(companyId, place);
    const channel = SocketChannels.ticket(companyId);
    const out: Emission[] = [{ rooms, channel, payload: { action: 'update', ticket } satisfies TicketChannelPayload }];
    const lost = before ? ticketRooms(companyId, before).filter((r) => !rooms.includes(r)) : [];
    if (lost.length)
      out.push({ rooms: lost, except: rooms, channel, payload: { action: 'delete', ticketId: ticket.id } satisfies TicketChannelPayload });
    return out;
  }

  private async ticketDeleted(companyId: number, e: TicketDeletedEvent, msg: BusMessage<unknown>): Promise<Emission[]> {
    if (!isId(e.ticketId)) return this.skip(msg, 'bad ticket id');
    const before = await this.places.forget(companyId, e.ticketId).catch((err: unknown) => this.cacheFailed(err));
    const rooms = new Set(ticketRooms(companyId, placeOf(e)));
    if (before) for (const r of ticketRooms(companyId, before)) rooms.add(r);
    return [
      {
        rooms: [...rooms],
        channel: SocketChannels.ticket(companyId),
        payload: { action: 'delete', ticketId: e.ticketId } satisfies TicketChannelPayload,
      },
    ];
  }

  private async ticketUnread(companyId: number, e: TicketUnreadEvent, msg: BusMessage<unknown>): Promise<Emission[]> {
    if (!isId(e.ticketId)) return this.skip(msg, 'bad ticket id');
    const place = placeOf(e);
    await this.places.learn(companyId, e.ticketId, place).catch((err: unknown) => this.cacheFailed(err));
    return [
      {
        rooms: ticketRooms(companyId, place),
        channel: SocketChannels.ticket(companyId),
        payload: { action: 'updateUnread', ticketId: e.ticketId } satisfies TicketChannelPayload,
      },
    ];
  }

  private async message(companyId: number, action: 'create' | 'update', e: MessageEvent, msg: BusMessage<unknown>): Promise<Emission[]> {
    const ticket = e.ticket;
    if (!e.message || !ticket || !isId(ticket.id) || (ticket.companyId !== undefined && ticket.companyId !== companyId))
      return this.skip(msg, 'bad message');
    const place = placeOf(ticket);
    const payload: AppMessageChannelPayload = { action, message: e.message, ticket, contact: e.contact };
    const message: Emission = { rooms: ticketRooms(companyId, place), channel: SocketChannels.appMessage(companyId), payload };
    // a new message changed its ticket (last message, unread count, maybe its place): a new place is told after the message
    if (action === 'create') return [message, ...(await this.ticketNow(companyId, ticket, true))];
    await this.places.learn(companyId, ticket.id, place).catch((err: unknown) => this.cacheFailed(err));
    return [message];
  }

  /** Many messages' events in one (`message.batch`): each as if it came alone, in their order. */
  private async messages(companyId: number, e: MessageBatchEvent, msg: BusMessage<unknown>): Promise<Emission[]> {
    if (!Array.isArray(e.events)) return this.skip(msg, 'bad message batch');
    const out: Emission[] = [];
    for (const one of e.events) {
      if (one?.verb !== 'created' && one?.verb !== 'updated') {
        this.skip(msg, 'bad message in batch');
        continue;
      }
      out.push(...(await this.message(companyId, one.verb === 'created' ? 'create' : 'update', one, msg)));
    }
    return out;
  }

  private contactUpdated(companyId: number, e: ContactUpdatedEvent, msg: BusMessage<unknown>): Emission[] {
    if (!e.contact || !isId(e.contact.id)) return this.skip(msg, 'bad contact');
    return [
      {
        rooms: [Rooms.company(companyId)],
        channel: SocketChannels.contact(companyId),
        payload: { action: 'update', contact: e.contact } satisfies ContactChannelPayload,
      },
    ];
  }

  /** A queue created, changed or deleted: to everyone of the company (queue pickers, the queues page). */
  private queue(companyId: number, verb: string, e: QueueChangedEvent & QueueDeletedEvent, msg: BusMessage<unknown>): Emission[] {
    const queueId = verb === 'updated' ? e.queue?.id : e.queueId;
    if (!isId(queueId) || (verb === 'updated' && e.queue.companyId !== companyId)) return this.skip(msg, 'bad queue');
    const payload: QueueChannelPayload = verb === 'updated' ? { action: 'update', queue: e.queue } : { action: 'delete', queueId };
    return [{ rooms: [Rooms.company(companyId)], channel: SocketChannels.queue(companyId), payload }];
  }

  /** A scheduled message: to its author and the company's admins (the ones who see it in the calendar). */
  private schedule(companyId: number, verb: string, e: ScheduleUpdatedEvent & ScheduleDeletedEvent, msg: BusMessage<unknown>): Emission[] {
    const userId = verb === 'updated' ? e.schedule?.userId : e.userId;
    const scheduleId = verb === 'updated' ? e.schedule?.id : e.scheduleId;
    if (!isId(scheduleId) || !isId(userId) || (verb === 'updated' && e.schedule.companyId !== companyId))
      return this.skip(msg, 'bad schedule');
    const payload: ScheduleChannelPayload =
      verb === 'updated' ? { action: 'update', schedule: e.schedule } : { action: 'delete', scheduleId };
    return [{ rooms: [Rooms.allTickets(companyId), Rooms.user(companyId, userId)], channel: SocketChannels.schedule(companyId), payload }];
  }

  /** Internal chat: only its members' sockets hear of it (a member taken out hears it is gone for them). */
  private chat(
    companyId: number,
    verb: 'updated' | 'message' | 'deleted',
    e: ChatChangedEvent & ChatMessageEvent & ChatDeletedEvent,
    msg: BusMessage<unknown>,
  ): Emission[] {
    const channel = SocketChannels.chat(companyId);
    const roomsOf = (ids: readonly number[]) => ids.filter(isId).map((id) => Rooms.user(companyId, id));
    if (verb === 'deleted') {
      if (!isId(e.chatId) || !Array.isArray(e.userIds)) return this.skip(msg, 'bad chat');
      return [{ rooms: roomsOf(e.userIds), channel, payload: { action: 'delete', chatId: e.chatId } satisfies ChatChannelPayload }];
    }
    const chat = e.chat;
    if (!chat || !isId(chat.id) || !Array.isArray(chat.users)) return this.skip(msg, 'bad chat');
    const members = roomsOf(chat.users.map((u) => u.userId));
    if (verb === 'message')
      return [{ rooms: members, channel, payload: { action: 'new-message', chat, newMessage: e.message } satisfies ChatChannelPayload }];
    const out: Emission[] = [{ rooms: members, channel, payload: { action: 'update', chat } satisfies ChatChannelPayload }];
    const removed = roomsOf(e.removedUserIds ?? []);
    if (removed.length) out.push({ rooms: removed, channel, payload: { action: 'delete', chatId: chat.id } satisfies ChatChannelPayload });
    return out;
  }

  private contactDeleted(companyId: number, e: ContactDeletedEvent, msg: BusMessage<unknown>): Emission[] {
    if (!isId(e.contactId)) return this.skip(msg, 'bad contact id');
    return [
      {
        rooms: [Rooms.company(companyId)],
        channel: SocketChannels.contact(companyId),
        payload: { action: 'delete', contactId: e.contactId } satisfies ContactChannelPayload,
      },
    ];
  }

  private skip(msg: BusMessage<unknown>, why: string): Emission[] {
    this.log.warn({ subject: msg.subject, seq: msg.streamSeq, why }, 'event not fanned out');
    return [];
  }

  /** The cache only sharpens list updates and chat box checks: the event still goes out without it. */
  private cacheFailed(err: unknown): null {
    this.log.warn({ err: (err as Error)?.message }, 'ticket place cache unavailable');
    return null;
  }
}
