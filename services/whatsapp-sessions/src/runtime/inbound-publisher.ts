import { Injectable } from '@nestjs/common';
import { WaSubjects } from '@wa/contracts';
import { EventBus } from '@wa/event-bus';
import type { WAMessage } from '@whiskeysockets/baileys';
import type { LiveSession } from './live-session.js';
import { subjectToken, toAcks, toInboundMessage } from './providers/baileys/mapping.js';
import type { ProviderEventMap } from './providers/provider.js';
import { SessionStore } from './session-store.js';

type SessionRef = Pick<LiveSession, 'id' | 'companyId' | 'ctx'>;

/**
 * What a session receives, onto JetStream: messages as `wa.inbound.<companyId>.<connectionId>.<contact>`
 * (msg id `<connectionId>:<waMessageId>`), status changes of our sends as `wa.ack.*` (after raising
 * sent_messages.ack).
 */
@Injectable()
export class InboundPublisher {
  constructor(
    private readonly bus: EventBus,
    private readonly store: SessionStore,
  ) {}

  /**
   * An upsert's messages: one conversation's messages one after the other (a retried publish cannot
   * overtake the next one), different conversations side by side.
   */
  async upsert(s: SessionRef, upsert: ProviderEventMap['messages.upsert']): Promise<void> {
    const conversations = new Map<string, WAMessage[]>();
    for (const m of upsert.messages) {
      const key = m.key?.remoteJid ?? '';
      const list = conversations.get(key);
      if (list) list.push(m);
      else conversations.set(key, [m]);
    }
    await Promise.all([...conversations.values()].map((messages) => this.conversation(s, messages)));
  }

  /** Status changes of our messages → sent_messages.ack and `wa.ack.*`. */
  async updates(s: SessionRef, updates: ProviderEventMap['messages.update']): Promise<void> {
    for (const { contact, ack } of toAcks(updates, s.ctx)) {
      await this.store.raiseAck(s.id, ack.waMessageId, ack.ack);
      await this.ack(s, contact, ack.waMessageId, ack.ack);
    }
  }

  async ack(s: SessionRef, contact: string, waMessageId: string, ack: number): Promise<void> {
    await this.bus.publish(
      WaSubjects.ack(s.companyId, s.id, subjectToken(contact)),
      { companyId: s.companyId, connectionId: s.id, waMessageId, ack, at: Date.now() },
      { msgId: WaSubjects.ackMsgId(s.id, waMessageId, ack) },
    );
  }

  private async conversation(s: SessionRef, messages: WAMessage[]): Promise<void> {
    for (const m of messages) {
      const inbound = toInboundMessage(m, s.ctx);
      if (!inbound) continue;
      // the echo of a message this connection sent itself; messages typed on the phone do go on
      if (inbound.fromMe && (await this.store.isOurSend(s.id, inbound.waMessageId))) continue;
      await this.bus.publish(WaSubjects.inbound(s.companyId, s.id, subjectToken(inbound.from)), inbound, {
        msgId: WaSubjects.inboundMsgId(s.id, inbound.waMessageId),
      });
    }
  }
}
