import { Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { isJidGroup, isPnUser, jidNormalizedUser, proto, type WAMessage, type WAMessageKey } from '@whiskeysockets/baileys';
import { PeriodicTask, writeBatcher } from '@wa/server-kit';
import { WhatsappSessionsEnv } from '../../../config/env.js';
import { SentContentsRepository, type SentContentRow } from './sent-contents.repository.js';

/** How often the messages kept past the window are deleted. */
const PRUNE_EVERY_MS = 5 * 60_000;

/** Rows one prune statement deletes at most, and statements one pass runs at most (the rest waits for the next pass). */
const PRUNE_BATCH = 5_000;
const PRUNE_BATCHES_PER_PASS = 20;

/**
 * What one connection's Baileys session sent, as Baileys' `getMessage` needs it (the connection bound: no method
 * takes it). Neither method rejects: a failure is logged, and a send goes on as if nothing were kept.
 */
export interface SentMessages {
  /** Baileys built and sent this message (`sendMessage`'s answer): kept under its id for the window. */
  keep(sent: WAMessage | undefined): Promise<void>;
  /**
   * Baileys' `getMessage`: the content sent under the key's id within the window, for a retry receipt of the
   * chat it went to; undefined when unknown, expired, or asked for from another chat.
   */
  answer(key: WAMessageKey): Promise<proto.IMessage | undefined>;
}

/** Keeps nothing, answers nothing (a provider made without the store). */
export const NOTHING_KEPT: SentMessages = {
  keep: async () => undefined,
  answer: async () => undefined,
};

/**
 * The messages the connections' Baileys sessions sent, kept for SENT_MESSAGE_RETRY_WINDOW_MS
 * (`whatsapp.sent_contents`): a contact's phone that could not decrypt one of them (a new contact's first
 * message, a campaign's above all) sends a retry receipt, and Baileys sends the message again with what
 * `getMessage` answers. Each is kept as Baileys built it (the encoded `proto.Message`: the text, or a file's keys
 * and address on WhatsApp's media servers), so any process holding the session later (a restart, a takeover)
 * answers it. Writes of sends going out side by side share a statement; every PRUNE_EVERY_MS each process
 * deletes what is past the window, in bounded statements.
 */
@Injectable()
export class SentContents implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(SentContents.name);
  private readonly windowMs: number;
  private readonly pruning: PeriodicTask;
  private readonly keepTogether = writeBatcher<SentContentRow>((rows) => this.repository.keep(rows));

  constructor(
    private readonly repository: SentContentsRepository,
    env: WhatsappSessionsEnv,
  ) {
    this.windowMs = env.SENT_MESSAGE_RETRY_WINDOW_MS;
    this.pruning = new PeriodicTask({ name: 'sent contents prune', everyMs: PRUNE_EVERY_MS, run: () => this.prune(), logger: this.logger });
  }

  onApplicationBootstrap(): void {
    this.pruning.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.pruning.stop();
  }

  /** One connection's sent messages. */
  forConnection(connectionId: number): SentMessages {
    return {
      keep: (sent) => this.keep(connectionId, sent),
      answer: (key) => this.answer(connectionId, key),
    };
  }

  /** Deletes what was sent longer than the window ago (at most PRUNE_BATCHES_PER_PASS statements); answers how many went. */
  async prune(): Promise<number> {
    let pruned = 0;
    for (let i = 0; i < PRUNE_BATCHES_PER_PASS; i++) {
      const n = await this.repository.prune(this.windowMs, PRUNE_BATCH);
      pruned += n;
      if (n < PRUNE_BATCH) break;
    }
    return pruned;
  }

  private async keep(connectionId: number, sent: WAMessage | undefined): Promise<void> {
    const id = sent?.key?.id;
    const jid = sent?.key?.remoteJid;
    if (!id || !jid || !sent.message) return;
    try {
      const content = Buffer.from(proto.Message.encode(sent.message).finish());
      await this.keepTogether({ connectionId, waMessageId: id, jid, content });
    } catch (err) {
      this.logger.warn({ err, connectionId, waMessageId: id }, 'sent message not kept: a retry receipt for it goes unanswered');
    }
  }

  private async answer(connectionId: number, key: WAMessageKey): Promise<proto.IMessage | undefined> {
    if (!key.id) return undefined;
    let kept: { jid: string; content: Buffer } | null;
    try {
      kept = await this.repository.find(connectionId, key.id, this.windowMs);
    } catch (err) {
      this.logger.warn({ err, connectionId, waMessageId: key.id }, 'sent message not read: a retry receipt goes unanswered');
      return undefined;
    }
    if (!kept) return undefined;
    if (!sameChat(key.remoteJid, kept.jid)) {
      this.logger.warn(
        { connectionId, waMessageId: key.id, asked: key.remoteJid },
        'retry receipt from another chat than the message went to: unanswered',
      );
      return undefined;
    }
    return proto.Message.decode(kept.content);
  }
}

/**
 * Whether a retry receipt's chat can be the one the message went to: a phone jid or a group is compared with the
 * jid the message went to (devices aside). A contact asking under its LID cannot be matched to the phone jid we
 * sent to without the LID's mapping, and is answered (a message id is not guessable).
 */
function sameChat(asked: string | null | undefined, sentTo: string): boolean {
  const kind = (jid: string) => (isPnUser(jid) ? 'phone' : isJidGroup(jid) ? 'group' : 'other');
  if (!asked || kind(asked) === 'other' || kind(sentTo) === 'other') return true;
  return jidNormalizedUser(asked) === jidNormalizedUser(sentTo);
}
