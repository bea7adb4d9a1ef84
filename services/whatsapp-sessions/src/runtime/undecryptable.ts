import { Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { WaSubjects, type WaInboundMessage } from '@wa/contracts';
import { PeriodicTask } from '@wa/server-kit';
import { UndecryptableRepository } from './undecryptable.repository.js';

/**
 * How long a message published undecryptable waits for its resend (3 days): a resend later than that is published
 * as any message (the bus's window has long passed; tickets finds the waiting message stored and keeps it waiting).
 */
export const UNDECRYPTABLE_KEPT_MS = 3 * 24 * 60 * 60_000;

/** Ids one session keeps in memory at most (the most recent are loaded). */
const MAX_PER_SESSION = 100_000;

/** How often the ids past UNDECRYPTABLE_KEPT_MS are deleted, and in what statements. */
const PRUNE_EVERY_MS = 10 * 60_000;
const PRUNE_BATCH = 5_000;
const PRUNE_BATCHES_PER_PASS = 20;

/** A session, as the key of its memory (a new session of the connection loads it again). */
type SessionKey = { readonly id: number };

/**
 * The messages each connection published undecryptable (WaInboundMessage.resend `waiting`: Baileys' CIPHERTEXT
 * stubs, the sandbox's `undecryptable`), so that the phone's resend, the same WhatsApp id with the content, is
 * published as what it is: `resend: 'replaces'`, under a msg id of its own (WaSubjects.resentMsgId), where the
 * waiting message's msg id would have the bus drop it as a repeat. Kept in PostgreSQL per connection
 * (`whatsapp.undecryptable_messages`, UNDECRYPTABLE_KEPT_MS, pruned by every process), so a restart or a takeover
 * between the two still knows; read into memory once when a session publishes its first message, so an ordinary
 * message costs no round trip.
 */
@Injectable()
export class UndecryptableMessages implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(UndecryptableMessages.name);
  private readonly loaded = new WeakMap<SessionKey, Promise<Map<string, number>>>();
  private readonly pruning: PeriodicTask;

  constructor(private readonly repository: UndecryptableRepository) {
    this.pruning = new PeriodicTask({ name: 'undecryptable prune', everyMs: PRUNE_EVERY_MS, run: () => this.prune(), logger: this.logger });
  }

  onApplicationBootstrap(): void {
    this.pruning.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.pruning.stop();
  }

  /**
   * The msg id `inbound` is published under, marking a resend: a waiting message is remembered first (the table,
   * then memory: a resend right after a restart still finds it) and keeps the inbound msg id; a message with the id
   * of one that waited is its resend (`resend: 'replaces'`, WaSubjects.resentMsgId; its repeats share that msg id).
   * Rejects when the memory cannot be read or written (PostgreSQL away): the delivery is tried again, as a resend
   * published as a repeat would be lost.
   */
  async msgIdOf(s: SessionKey, inbound: WaInboundMessage): Promise<string> {
    const id = inbound.waMessageId;
    if (inbound.resend === 'waiting') {
      const waiting = await this.load(s);
      if (!waiting.has(id)) {
        await this.repository.received(s.id, id);
        if (waiting.size >= MAX_PER_SESSION) waiting.delete(waiting.keys().next().value as string);
        waiting.set(id, Date.now());
      }
      return WaSubjects.inboundMsgId(s.id, id);
    }
    const waiting = await this.load(s);
    const at = waiting.get(id);
    if (at !== undefined && Date.now() - at < UNDECRYPTABLE_KEPT_MS) {
      inbound.resend = 'replaces';
      return WaSubjects.resentMsgId(s.id, id);
    }
    if (at !== undefined) waiting.delete(id);
    return WaSubjects.inboundMsgId(s.id, id);
  }

  /** Deletes what is past UNDECRYPTABLE_KEPT_MS (at most PRUNE_BATCHES_PER_PASS statements); answers how many went. */
  async prune(): Promise<number> {
    let pruned = 0;
    for (let i = 0; i < PRUNE_BATCHES_PER_PASS; i++) {
      const n = await this.repository.prune(UNDECRYPTABLE_KEPT_MS, PRUNE_BATCH);
      pruned += n;
      if (n < PRUNE_BATCH) break;
    }
    return pruned;
  }

  /** The session's connection's waiting ids (read once per session; a failed read is tried again on the next call). */
  private load(s: SessionKey): Promise<Map<string, number>> {
    let loading = this.loaded.get(s);
    if (!loading) {
      loading = this.repository
        .current(s.id, UNDECRYPTABLE_KEPT_MS, MAX_PER_SESSION)
        // oldest first: past MAX_PER_SESSION the oldest are let go first
        .then((rows) => new Map(rows.reverse().map((r) => [r.id, r.at])));
      this.loaded.set(s, loading);
      loading.catch(() => {
        if (this.loaded.get(s) === loading) this.loaded.delete(s);
      });
    }
    return loading;
  }
}
