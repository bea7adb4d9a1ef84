import { Injectable } from '@nestjs/common';
import { NumberJidsRepository, type RememberedJid } from './number-jids.repository.js';

/** What this process read or wrote lately is answered without a statement this long (other processes' changes show after it). */
const RECENT_MS = 10 * 60_000;

/** Numbers kept in this process's short memory at most (the oldest go first). */
const RECENT_MAX = 50_000;

/**
 * The jids WhatsApp answered for one company's numbers, as its providers see them (companyId bound: no method
 * takes it). A read or write failure rejects: the caller decides what a send does without it.
 */
export interface KnownJids {
  /** the jid remembered for the number, and when WhatsApp named it so; null when none is */
  find(number: string): Promise<RememberedJid | null>;
  /** WhatsApp named these numbers so (a number check's answer, a message from the number) */
  remember(entries: ReadonlyArray<{ number: string; jid: string }>): Promise<void>;
  /** the jid failed or WhatsApp no longer knows the numbers: forgotten (only where they are still remembered as `jid`) */
  forget(numbers: readonly string[], jid: string): Promise<void>;
}

/**
 * The jid WhatsApp answered for each number, per company (`whatsapp.number_jids`): a Brazilian mobile kept with
 * its 9th digit that WhatsApp names without it is sent to as WhatsApp names it by every process and every
 * connection of the company, across restarts, without asking WhatsApp again. Per company, not per connection:
 * the jid is WhatsApp's name for the number, the same whichever of the company's phones asks (a second phone
 * or one paired after a ban starts knowing), while one company never reads another's. PostgreSQL is the memory;
 * what this process read or wrote in the last RECENT_MS is answered from a short bounded one in front of it, so
 * a conversation's sends cost no statement and a sender writing again costs no write.
 */
@Injectable()
export class NumberJids {
  private readonly recent = new Map<string, RememberedJid & { seenAt: number }>();

  constructor(private readonly repository: NumberJidsRepository) {}

  /** The company's numbers' jids. */
  forCompany(companyId: number): KnownJids {
    return {
      find: (number) => this.find(companyId, number),
      remember: (entries) => this.remember(companyId, entries),
      forget: (numbers, jid) => this.forget(companyId, numbers, jid),
    };
  }

  private async find(companyId: number, number: string): Promise<RememberedJid | null> {
    const key = `${companyId}:${number}`;
    const seen = this.recent.get(key);
    if (seen && Date.now() - seen.seenAt < RECENT_MS) return { jid: seen.jid, checkedAt: seen.checkedAt };
    const row = await this.repository.find(companyId, number);
    if (row) this.keep(key, row);
    else this.recent.delete(key);
    return row;
  }

  private async remember(companyId: number, entries: ReadonlyArray<{ number: string; jid: string }>): Promise<void> {
    const now = Date.now();
    // what this process knows was learned lately, unchanged, is not written again
    const news = entries.filter((e) => {
      const seen = this.recent.get(`${companyId}:${e.number}`);
      return !(seen && seen.jid === e.jid && now - seen.checkedAt < RECENT_MS && now - seen.seenAt < RECENT_MS);
    });
    if (news.length === 0) return;
    // known here at once (a reply right after a message from the number reads it), written for the others
    for (const e of news) this.keep(`${companyId}:${e.number}`, { jid: e.jid, checkedAt: now });
    try {
      await this.repository.remember(companyId, news);
    } catch (err) {
      // not written: the next time WhatsApp names them so, they are written again
      for (const e of news) {
        const key = `${companyId}:${e.number}`;
        if (this.recent.get(key)?.jid === e.jid) this.recent.delete(key);
      }
      throw err;
    }
  }

  private async forget(companyId: number, numbers: readonly string[], jid: string): Promise<void> {
    for (const n of numbers) {
      const key = `${companyId}:${n}`;
      if (this.recent.get(key)?.jid === jid) this.recent.delete(key);
    }
    await this.repository.forget(companyId, numbers, jid);
  }

  private keep(key: string, value: RememberedJid): void {
    this.recent.delete(key);
    if (this.recent.size >= RECENT_MAX) this.recent.delete(this.recent.keys().next().value as string);
    this.recent.set(key, { ...value, seenAt: Date.now() });
  }
}
