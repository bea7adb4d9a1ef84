import { Injectable, Logger } from '@nestjs/common';
import { maySeeTicket } from '@wa/auth';
import type { ErrorCode } from '@wa/contracts';
import { RealtimeEnv } from '../config/env.js';
import { TicketPlaces } from './ticket-places.js';
import type { RealtimeSocketData } from './socket-types.js';

export type AccessAnswer = { ok: true } | { ok: false; error: ErrorCode };

const LOOKUP_TIMEOUT_MS = 3_000;

/**
 * May this socket follow that ticket's chat box? Yes when the ticket's last known place in the socket's
 * company (TicketPlaces) allows it (any place, for an admin); otherwise tickets, which owns the rule, is
 * asked with the socket's own token: 2xx yes, 401 / 403 / 404 no, anything else no.
 */
@Injectable()
export class TicketAccess {
  private readonly log = new Logger(TicketAccess.name);

  constructor(
    private readonly places: TicketPlaces,
    private readonly env: RealtimeEnv,
  ) {}

  async check(data: RealtimeSocketData, ticketId: number): Promise<AccessAnswer> {
    // a place is kept per company: known here means the ticket is this company's (enough for an admin)
    const place = await this.places.get(data.companyId, ticketId).catch(() => null);
    if (place && maySeeTicket(data.userId, data.visibility, place)) return { ok: true };
    return this.askTickets(data, ticketId);
  }

  private async askTickets(data: RealtimeSocketData, ticketId: number): Promise<AccessAnswer> {
    let res: Response;
    try {
      res = await fetch(`${this.env.TICKETS_URL}/tickets/${ticketId}`, {
        headers: { authorization: `Bearer ${data.token}`, accept: 'application/json' },
        signal: AbortSignal.timeout(LOOKUP_TIMEOUT_MS),
      });
    } catch (err) {
      this.log.warn({ companyId: data.companyId, ticketId, err: (err as Error).message }, 'tickets lookup failed');
      return { ok: false, error: 'ERR_SERVICE_UNAVAILABLE' };
    }
    const body = (await res.json().catch(() => null)) as { companyId?: unknown; queueId?: unknown; userId?: unknown } | null;
    if (res.ok) {
      // tickets scopes by the token's company; a body of another company would be a bug there: refuse
      if (body && typeof body.companyId === 'number' && body.companyId !== data.companyId) return { ok: false, error: 'ERR_NO_PERMISSION' };
      if (body && 'queueId' in body && 'userId' in body) {
        const id = (x: unknown) => (typeof x === 'number' && Number.isInteger(x) ? x : null);
        await this.places.learn(data.companyId, ticketId, { queueId: id(body.queueId), userId: id(body.userId) }).catch(() => undefined);
      }
      return { ok: true };
    }
    if (res.status === 401) return { ok: false, error: 'ERR_SESSION_EXPIRED' };
    if (res.status === 403) return { ok: false, error: 'ERR_NO_PERMISSION' };
    if (res.status === 404) return { ok: false, error: 'ERR_NO_TICKET_FOUND' };
    this.log.warn({ companyId: data.companyId, ticketId, status: res.status }, 'tickets lookup answered unexpectedly');
    return { ok: false, error: 'ERR_SERVICE_UNAVAILABLE' };
  }
}
