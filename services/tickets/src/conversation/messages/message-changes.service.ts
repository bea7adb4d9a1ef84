import { Injectable } from '@nestjs/common';
import { sessionCommandSubject, type ErrorCode, type MessageChangeCommand } from '@wa/contracts';
import { EventBus, NoRespondersError, request } from '@wa/event-bus';
import { DomainError } from '@wa/server-kit';
import type { TicketRow } from '../core/ticket-view.js';

/** How long WhatsApp may take to take an edit or a deletion. */
const CHANGE_TIMEOUT_MS = 10_000;

type Reply = { ok: true } | { ok: false; code?: ErrorCode; message?: string; status?: number };

/**
 * Edits and deletions of sent messages go to WhatsApp before they are stored: asked of the session that
 * holds the ticket's connection (request/reply), so the caller learns whether WhatsApp took them.
 */
@Injectable()
export class MessageChanges {
  constructor(private readonly bus: EventBus) {}

  async ask(row: TicketRow, command: MessageChangeCommand, refused: 'ERR_EDITING_WAPP_MSG' | 'ERR_DELETE_WAPP_MSG'): Promise<void> {
    let reply: Reply;
    try {
      reply = await request<Reply>(this.bus, sessionCommandSubject(row.whatsappId), command, { timeoutMs: CHANGE_TIMEOUT_MS });
    } catch (err) {
      // no process holds the session now: the phone is away
      if (err instanceof NoRespondersError) throw new DomainError('ERR_WAPP_NOT_INITIALIZED');
      throw new DomainError(refused, {}, 'WhatsApp did not answer in time.');
    }
    if (reply.ok) return;
    if (reply.code === 'ERR_WAPP_NOT_INITIALIZED') throw new DomainError('ERR_WAPP_NOT_INITIALIZED');
    throw new DomainError(refused);
  }
}
