import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryPrepared } from '@wa/database';
import { DataSource } from 'typeorm';
import { FLOW_ANSWER_MAX_BYTES, PeerAnswerTooLarge, readPeer } from '@wa/server-kit';
import { Agent } from 'undici';
import { TicketsEnv } from '../../config/env.js';
import type { QueueIntegrationEntity } from '../../database/entities/index.js';
import { guardedLookup } from '../../platform/address-guard.js';
import { integrationBox } from '../queue-integrations/queue-integrations.service.js';
import type { BotState } from './bot-rules.js';
import { DialogflowAgent } from './dialogflow-agent.js';
import type { AgentAnswer, FlowMessage } from './agent-answer.js';
import { INTEGRATION_OF_QUEUE } from './integration-agent.queries.js';

/** A Typebot rich-text block as plain text (paragraphs on lines of their own). */
export function typebotText(content: unknown): string {
  const walk = (node: unknown): string => {
    if (!node || typeof node !== 'object') return '';
    const n = node as { text?: unknown; children?: unknown[]; type?: string };
    const own = typeof n.text === 'string' ? n.text : '';
    const inner = Array.isArray(n.children) ? n.children.map(walk).join('') : '';
    return own + inner;
  };
  const c = content as { richText?: unknown[]; plainText?: string; markdown?: string } | undefined;
  if (typeof c?.markdown === 'string') return c.markdown.trim();
  if (typeof c?.plainText === 'string') return c.plainText.trim();
  return (c?.richText ?? []).map(walk).join('\n').trim();
}

/**
 * A queue's outside flow answering its customer, over HTTP with a timeout (INTEGRATION_TIMEOUT_MS, for each
 * pause and for the whole exchange, body included) and one retry, its answer read up to 256 KB
 * (FLOW_ANSWER_MAX_BYTES: a larger one is refused at once), through sockets that refuse the platform's own
 * network (unless WEBHOOK_ALLOW_PRIVATE):
 * - webhook and n8n: POST of the message, its ticket and contact; the answer's `reply` / `replies` (or a
 *   plain-text body) go to the customer, `transfer: true` hands over;
 * - typebot: its chat API (startChat, then continueChat on the session kept with the ticket), with the
 *   finish and restart keywords, the restart and unknown-answer texts, the delay between messages and the
 *   session's expiry in minutes;
 * - dialogflow: its detectIntent through the official client (DialogflowAgent).
 * Anything that fails or hangs hands the conversation over.
 */
@Injectable()
export class IntegrationAgent implements OnApplicationShutdown {
  private readonly logger = new Logger(IntegrationAgent.name);
  private readonly dispatcher: Agent;
  private readonly box: ReturnType<typeof integrationBox>;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly env: TicketsEnv,
    private readonly dialogflow: DialogflowAgent,
  ) {
    const timeout = env.INTEGRATION_TIMEOUT_MS;
    this.box = integrationBox(env);
    this.dispatcher = new Agent({
      connect: { lookup: guardedLookup(env.WEBHOOK_ALLOW_PRIVATE === 'true'), timeout },
      headersTimeout: timeout,
      bodyTimeout: timeout,
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.dispatcher.close().catch(() => undefined);
  }

  /** The queue's integration, when it has one. */
  async of(companyId: number, queueId: number): Promise<QueueIntegrationEntity | null> {
    const [row] = await queryPrepared<QueueIntegrationEntity>(this.db, INTEGRATION_OF_QUEUE, [queueId, companyId]);
    return row ?? null;
  }

  async answer(integration: QueueIntegrationEntity, m: FlowMessage, state: BotState | null): Promise<AgentAnswer> {
    try {
      if (integration.type === 'webhook' || integration.type === 'n8n') return await this.flow(integration, m);
      if (integration.type === 'typebot') return await this.typebot(integration, m, state);
      if (integration.type === 'dialogflow')
        return await this.dialogflow.answer(integration, integration.jsonContent ? this.box.open(integration.jsonContent) : null, m);
      return { kind: 'hand-over', reason: `${integration.type} is not reached from this server` };
    } catch (err) {
      this.logger.warn(
        {
          companyId: m.companyId,
          ticketId: m.ticketId,
          integration: integration.id,
          err: err instanceof Error ? err.message : String(err),
        },
        'integration failed; the queue’s agents take the conversation',
      );
      return { kind: 'hand-over', reason: 'the integration failed' };
    }
  }

  private async flow(integration: QueueIntegrationEntity, m: FlowMessage): Promise<AgentAnswer> {
    const payload = {
      event: 'message',
      integration: { id: integration.id, name: integration.name, type: integration.type },
      companyId: m.companyId,
      ticket: { id: m.ticketId, queueId: m.queueId },
      contact: m.contact,
      message: { id: m.messageId, body: m.body },
    };
    const { status, text } = await this.post(integration.urlN8N, payload);
    if (status < 200 || status >= 300) return { kind: 'hand-over', reason: `the flow answered ${status}` };
    type FlowAnswer = { reply?: unknown; replies?: unknown; transfer?: unknown };
    const answer = ((): FlowAnswer | null => {
      try {
        return text.trim().startsWith('{') ? (JSON.parse(text) as FlowAnswer) : null;
      } catch {
        return null;
      }
    })();
    if (answer?.transfer === true) return { kind: 'hand-over', reason: 'the flow transferred the conversation' };
    const texts = answer
      ? [
          ...(typeof answer.reply === 'string' ? [answer.reply] : []),
          ...(Array.isArray(answer.replies) ? answer.replies.filter((r): r is string => typeof r === 'string') : []),
        ]
      : text.trim()
        ? [text.trim()]
        : [];
    return { kind: 'reply', texts: texts.map((t) => t.trim()).filter(Boolean) };
  }

  private async typebot(integration: QueueIntegrationEntity, m: FlowMessage, state: BotState | null): Promise<AgentAnswer> {
    const said = m.body.trim().toLowerCase();
    if (integration.typebotKeywordFinish && said === integration.typebotKeywordFinish.trim().toLowerCase())
      return { kind: 'hand-over', reason: 'the customer finished the flow' };
    const restart = Boolean(integration.typebotKeywordRestart) && said === integration.typebotKeywordRestart.trim().toLowerCase();
    const kept = state?.typebot;
    const expired =
      kept && integration.typebotExpires > 0 && Date.now() - new Date(kept.at).getTime() > integration.typebotExpires * 60_000;
    const base = integration.urlN8N.replace(/\/+$/, '');
    const message = { type: 'text', text: m.body };
    let sessionId = !restart && !expired ? kept?.sessionId : undefined;
    let reply: { status: number; text: string } | null = null;
    if (sessionId) {
      reply = await this.post(`${base}/api/v1/sessions/${encodeURIComponent(sessionId)}/continueChat`, { message });
      // the session ended on Typebot's side: a new one
      if (reply.status === 404) sessionId = undefined;
    }
    if (!sessionId) {
      reply = await this.post(`${base}/api/v1/typebots/${encodeURIComponent(integration.typebotSlug)}/startChat`, {
        message,
        isStreamEnabled: false,
        prefilledVariables: { number: m.contact.number, name: m.contact.name },
      });
    }
    if (!reply || reply.status < 200 || reply.status >= 300) return { kind: 'hand-over', reason: `Typebot answered ${reply?.status}` };
    const body = JSON.parse(reply.text) as { sessionId?: string; messages?: Array<{ type?: string; content?: unknown }> };
    sessionId = body.sessionId ?? sessionId;
    const texts = (body.messages ?? [])
      .filter((x) => x.type === 'text')
      .map((x) => typebotText(x.content))
      .filter(Boolean);
    if (texts.length === 0 && integration.typebotUnknownMessage) texts.push(integration.typebotUnknownMessage);
    if (restart && integration.typebotRestartMessage) texts.unshift(integration.typebotRestartMessage);
    return {
      kind: 'reply',
      texts,
      delayMs: integration.typebotDelayMessage,
      typebot: sessionId ? { sessionId, at: new Date().toISOString() } : null,
    };
  }

  /**
   * A JSON POST whose answer must come whole within INTEGRATION_TIMEOUT_MS and FLOW_ANSWER_MAX_BYTES (the
   * request is aborted past either), tried again once after a failure or a 5xx; an answer too large is not
   * tried again.
   */
  private async post(url: string, payload: unknown): Promise<{ status: number; text: string }> {
    let last: unknown;
    for (let attempt = 1; attempt <= 2; attempt++) {
      try {
        const res = await readPeer(url, {
          method: 'POST',
          dispatcher: this.dispatcher,
          headers: { 'content-type': 'application/json', 'user-agent': 'conversa-bot/1' },
          body: JSON.stringify(payload),
          maxBytes: FLOW_ANSWER_MAX_BYTES,
          deadlineMs: this.env.INTEGRATION_TIMEOUT_MS,
        });
        if (res.status >= 500 && attempt === 1) continue;
        return { status: res.status, text: res.text() };
      } catch (err) {
        if (err instanceof PeerAnswerTooLarge) throw err;
        last = err;
      }
    }
    throw last instanceof Error ? last : new Error('the integration did not answer');
  }
}
