import { Inject, Injectable } from '@nestjs/common';
import { REDIS } from '@wa/server-kit';
import type { Redis } from 'ioredis';
import { RealtimeEnv } from '../config/env.js';
import type { TicketPlace } from './rooms.js';

const key = (companyId: number, ticketId: number) => `rt:ticket:${companyId}:${ticketId}`;

const KNOWN_MAX = 100_000;

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
  /** places this process wrote lately: a `learn` of the same place is then a no-op in Redis and is skipped */
  private readonly known = new Map<string, { place: string; until: number }>();

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly env: RealtimeEnv,
  ) {}

  get(companyId: number, ticketId: number): Promise<TicketPlace | null> {
    return this.redis.get(key(companyId, ticketId)).then(decode);
  }

  /** Stores the ticket's place and returns the one it replaces (where the ticket was before). */
  async swap(companyId: number, ticketId: number, place: TicketPlace): Promise<TicketPlace | null> {
    const k = key(companyId, ticketId);
    const value = encode(place);
    // the fan-out replica is the only writer while it holds its lease: a place it wrote lately is still
    // the one in Redis, and a ticket that stays where it was needs no round trip
    if (this.wroteLately(k, value)) return place;
    const before = decode(await this.redis.set(k, value, 'EX', this.env.TICKET_CACHE_TTL_S, 'GET'));
    this.remember(k, value);
    return before;
  }

  /**
   * Stores the place only when none is known (it must not hide a move from `swap`). When this process
   * wrote the key within half its lifetime it is surely still there, and the write would change nothing.
   */
  async learn(companyId: number, ticketId: number, place: TicketPlace): Promise<void> {
    const k = key(companyId, ticketId);
    const value = encode(place);
    if (this.wroteLately(k, value)) return;
    await this.redis.set(k, value, 'EX', this.env.TICKET_CACHE_TTL_S, 'NX');
    this.remember(k, value);
  }

  /** Drops the ticket and returns where it was. */
  async forget(companyId: number, ticketId: number): Promise<TicketPlace | null> {
    const k = key(companyId, ticketId);
    this.known.delete(k);
    return decode(await this.redis.getdel(k));
  }

  /** Forgets what this process wrote: another replica may have written since (called when it starts to consume). */
  resetMemo(): void {
    this.known.clear();
  }

  /** This process wrote this place under this key within half the key's lifetime (so it is still there). */
  private wroteLately(k: string, place: string): boolean {
    const seen = this.known.get(k);
    return !!seen && seen.place === place && seen.until > Date.now();
  }

  private remember(k: string, place: string): void {
    if (this.known.size >= KNOWN_MAX) this.known.clear();
    this.known.set(k, { place, until: Date.now() + (this.env.TICKET_CACHE_TTL_S * 1000) / 2 });
  }
}
