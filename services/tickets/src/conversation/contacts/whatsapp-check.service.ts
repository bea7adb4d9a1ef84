import { Injectable, Logger } from '@nestjs/common';
import { sessionCommandSubject, type NumberCheckCommand, type NumberCheckResult } from '@wa/contracts';
import { EventBus, NoRespondersError, request } from '@wa/event-bus';
import { DomainError } from '@wa/server-kit';
import { ReadModels } from '../../read-models/read-models.repository.js';

/** How long a check may take at the session's holder before the number counts as not checked. */
const CHECK_TIMEOUT_MS = 5_000;

type Reply = { ok: true; result?: NumberCheckResult } | { ok: false; code?: string };

/**
 * Asks a connection's session whether a number is on WhatsApp (its provider: Baileys' `onWhatsApp`, or
 * the sandbox's rule). Answers true or false, or null when nobody could tell (no session running, the
 * phone offline, the holder slow): a contact is never refused because a phone is away.
 */
@Injectable()
export class WhatsappCheck {
  private readonly logger = new Logger(WhatsappCheck.name);

  constructor(
    private readonly bus: EventBus,
    private readonly readModels: ReadModels,
  ) {}

  /**
   * Through the given connection, or the company's default one. `strict`: when the session is up but
   * WhatsApp could not answer (the holder reports a failure), ERR_WAPP_CHECK_CONTACT instead of null.
   */
  async isOnWhatsapp(
    companyId: number,
    number: string,
    connectionId?: number | null,
    opts: { strict?: boolean } = {},
  ): Promise<boolean | null> {
    const connection = connectionId
      ? await this.readModels.connection(companyId, connectionId)
      : await this.readModels.defaultConnection(companyId);
    if (!connection || connection.status !== 'CONNECTED') return null;
    const command: NumberCheckCommand = { action: 'check', number };
    let reply: Reply;
    try {
      reply = await request<Reply>(this.bus, sessionCommandSubject(connection.id), command, { timeoutMs: CHECK_TIMEOUT_MS });
    } catch (err) {
      if (!(err instanceof NoRespondersError))
        this.logger.warn({ err: (err as Error).message, companyId, connectionId: connection.id }, 'number check not answered');
      return null;
    }
    if (reply.ok) return reply.result?.exists ?? null;
    if (reply.code === 'ERR_WAPP_INVALID_CONTACT') return false;
    if (opts.strict && reply.code !== 'ERR_WAPP_NOT_INITIALIZED' && reply.code !== 'ERR_SERVICE_UNAVAILABLE')
      throw new DomainError('ERR_WAPP_CHECK_CONTACT');
    return null;
  }
}
