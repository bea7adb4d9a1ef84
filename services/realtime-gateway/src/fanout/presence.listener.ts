import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { isChatPresence, PresenceSubjects, SocketChannels, type PresenceSocketEvent, type TicketPresence } from '@wa/contracts';
import { EventBus, listen } from '@wa/event-bus';
import { Rooms } from '../realtime/rooms.js';
import { eventCompany, isId, type Emission } from './emission.js';
import { FanoutRelay } from './fanout-relay.js';

/** The realtime replicas share customers' presences: one of them takes each and emits it to every replica's sockets. */
const QUEUE = 'realtime-presence';

/**
 * A customer typing or recording (`presence.ticket.<companyId>`, tickets' core NATS announcement: no stream, no
 * durable) to the chat box of their ticket: `company-<id>-presence` `{ ticketId, state }` to the ticket's room, which
 * only sockets allowed to see the ticket joined (joinChatBox). Emitted through the fan-out relay like the events.
 */
export function presenceEmission(subject: string, data: unknown): Emission | null {
  const companyId = eventCompany(subject, 2, data);
  const p = data as Partial<TicketPresence> | null;
  if (companyId === null || !p || !isId(p.ticketId) || !isChatPresence(p.state)) return null;
  const payload: PresenceSocketEvent = { ticketId: p.ticketId, state: p.state };
  return { rooms: [Rooms.ticket(companyId, p.ticketId)], channel: SocketChannels.presence(companyId), payload };
}

@Injectable()
export class PresenceListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger(PresenceListener.name);
  private stop: (() => void) | undefined;

  constructor(
    private readonly bus: EventBus,
    private readonly relay: FanoutRelay,
  ) {}

  onApplicationBootstrap(): void {
    this.stop = listen<unknown>(
      this.bus,
      PresenceSubjects.allTicket,
      (data, subject) => {
        const emission = presenceEmission(subject, data);
        if (emission) this.relay.fanOut([emission]);
      },
      { queue: QUEUE, failed: (err) => this.log.warn({ err: String(err) }, 'presence not emitted') },
    );
  }

  onApplicationShutdown(): void {
    this.stop?.();
  }
}
