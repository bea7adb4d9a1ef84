import { Injectable, Logger } from '@nestjs/common';
import { NotOnWhatsappRepository } from './not-on-whatsapp.repository.js';
import { numberForms } from './number-forms.js';

/** A number WhatsApp said is not on it is taken at its word this long (then asked again: people come back). */
export const NOT_ON_WHATSAPP_TTL_MS = 6 * 60 * 60_000;

/** Numbers of one session kept refused at most (the most recent refusals are loaded). */
const MAX_PER_SESSION = 100_000;

/** A session, as the key of its memory (a new session of the connection loads it again). */
type SessionKey = { readonly id: number };

/**
 * The numbers WhatsApp said are not on it, per connection (`whatsapp.not_on_whatsapp`): a send to one fails at
 * once, without asking the phone, for NOT_ON_WHATSAPP_TTL_MS. Kept in PostgreSQL so a restart or a takeover
 * does not ask again (and time out a send again), read into memory once when a session starts consuming its
 * sends, so a send costs no round trip; written when WhatsApp refuses a number; a message from the number
 * (it is back on WhatsApp) forgets it, in memory and in the table.
 */
@Injectable()
export class NotOnWhatsapp {
  private readonly logger = new Logger(NotOnWhatsapp.name);
  private readonly loaded = new WeakMap<SessionKey, Promise<Map<string, number>>>();

  constructor(private readonly repository: NotOnWhatsappRepository) {}

  /** Reads the session's connection's refused numbers (once per session; a failed read is tried again on the next call). */
  load(s: SessionKey): Promise<Map<string, number>> {
    let loading = this.loaded.get(s);
    if (!loading) {
      loading = this.read(s.id);
      this.loaded.set(s, loading);
      loading.catch(() => {
        if (this.loaded.get(s) === loading) this.loaded.delete(s);
      });
    }
    return loading;
  }

  private async read(connectionId: number): Promise<Map<string, number>> {
    // the expired ones of this connection go now, the others come back into memory
    const rows = await this.repository.current(connectionId, NOT_ON_WHATSAPP_TTL_MS, MAX_PER_SESSION);
    // oldest first: past MAX_PER_SESSION the oldest are let go first
    return new Map(rows.reverse().map((r) => [r.number, r.at]));
  }

  /** WhatsApp said lately that this number is not on it (the session's memory, loaded first). */
  async has(s: SessionKey, number: string): Promise<boolean> {
    const refused = await this.load(s);
    const at = refused.get(number);
    if (at === undefined) return false;
    if (Date.now() - at < NOT_ON_WHATSAPP_TTL_MS) return true;
    refused.delete(number);
    return false;
  }

  /** WhatsApp refused the number: remembered (the table first, so a restart right after still knows it). */
  async refused(s: SessionKey, number: string): Promise<void> {
    const refused = await this.load(s);
    await this.repository.refused(s.id, number);
    if (!refused.has(number) && refused.size >= MAX_PER_SESSION) refused.delete(refused.keys().next().value as string);
    refused.set(number, Date.now());
  }

  /**
   * A message came from the number: it is on WhatsApp (again), and forgotten. Costs a statement only when it
   * was remembered. Were the memory unreadable (PostgreSQL away), the message goes on and the number stays
   * refused until it expires: a received message never waits for this.
   */
  async cameBack(s: SessionKey, number: string): Promise<void> {
    let refused: Map<string, number>;
    try {
      refused = await this.load(s);
    } catch (err) {
      this.logger.warn({ err, connectionId: s.id }, 'refused numbers not read; a number that wrote in is not forgotten');
      return;
    }
    // a customer refused under one form of a Brazilian mobile writes in under the other
    const numbers = numberForms(number).filter((n) => refused.has(n));
    if (numbers.length === 0) return;
    await this.repository.forget(s.id, numbers);
    for (const n of numbers) refused.delete(n);
  }
}
