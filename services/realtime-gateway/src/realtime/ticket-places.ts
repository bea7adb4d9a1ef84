import { Inject, Injectable } from '@nestjs/common';
import { REDIS } from '@wa/server-kit';
import type { Redis } from 'ioredis';
import { RealtimeEnv } from '../config/env.js';
import type { TicketPlace } from './rooms.js';

const key = (companyId: number, ticketId: number) => `rt:ticket:${companyId}:${ticketId}`;

const encode = (p: TicketPlace) => JSON.stringify({ q: p.queueId, u: p.userId });

function decode(raw: string | null): TicketPlace | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as { q?: unknown; u?: unknown };
    const id = (x: unknown) => (typeof x === 'number' && Number.isInteger(x) ? x : null);
    return { queueId: id(v.q), userId: id(v.u) };
  } catch {
    return null;
  }
}

/**
 * The last known queue and owner of each ticket, learned from ticket events. It lives in Redis, not in
 * the process: with one shared consumer each replica handles only part of the events, and every
 * replica must read the same answer. Keys are per company and expire (TICKET_CACHE_TTL_S), which
 * bounds the set to the tickets that moved lately.
 */
@Injectable()
export class TicketPlaces {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly env: RealtimeEnv,
  ) {}

  get(companyId: number, ticketId: number): Promise<TicketPlace | null> {
    return this.redis.get(key(companyId, ticketId)).then(decode);
  }

  /** Stores the ticket's place and returns the one it replaces (where the ticket was before). */
  async swap(companyId: number, ticketId: number, place: TicketPlace): Promise<TicketPlace | null> {
    return decode(await this.redis.set(key(companyId, ticketId), encode(place), 'EX', this.env.TICKET_CACHE_TTL_S, 'GET'));
  }

  /** Stores the place only when none is known (it must not hide a move from `swap`). */
  async learn(companyId: number, ticketId: number, place: TicketPlace): Promise<void> {
    await this.redis.set(key(companyId, ticketId), encode(place), 'EX', this.env.TICKET_CACHE_TTL_S, 'NX');
  }

  /** Drops the ticket and returns where it was. */
  async forget(companyId: number, ticketId: number): Promise<TicketPlace | null> {
    return decode(await this.redis.getdel(key(companyId, ticketId)));
  }
}
