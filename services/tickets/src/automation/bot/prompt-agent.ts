import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryPrepared } from '@wa/database';
import { cappedFetch, MODEL_ANSWER_MAX_BYTES } from '@wa/server-kit';
import type OpenAI from 'openai';
import { DataSource } from 'typeorm';
import { TicketsEnv } from '../../config/env.js';
import type { PromptEntity } from '../../database/entities/index.js';
import { promptKeyBox } from '../prompts/prompts.service.js';
import type { AgentAnswer } from './agent-answer.js';
import { CONVERSATION_HISTORY, PROMPT_OF_QUEUE } from './prompt-agent.queries.js';

/** What the model says when the customer should talk to a person (the product's own convention). */
export const HAND_OVER = 'Ação: Transferir para o setor de atendimento';

/** The `openai` client, loaded on the first prompt's answer (a service whose queues have none pays nothing for it). */
let library: Promise<typeof OpenAI> | undefined;
const loadOpenAI = () => (library ??= import('openai').then((m) => m.default));

/**
 * A queue's AI prompt answering its customer through an OpenAI-compatible chat-completions API (the `openai`
 * client; OPENAI_BASE_URL, the prompt's own key or OPENAI_API_KEY): the prompt as the system message, the
 * conversation's last `maxMessages` messages as context (the customer's as user, ours as assistant),
 * `maxTokens` and `temperature`. A model that fails, takes longer than OPENAI_TIMEOUT_MS (its whole answer,
 * body included), answers more than 1 MB (MODEL_ANSWER_MAX_BYTES), answers nothing or says to transfer hands
 * the conversation over.
 */
@Injectable()
export class PromptAgent {
  private readonly logger = new Logger(PromptAgent.name);
  private readonly box;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly env: TicketsEnv,
  ) {
    this.box = promptKeyBox(env);
  }

  /** The model's answer to the conversation as it stood at `upToMessageId` (the message it answers). */
  async answer(companyId: number, queueId: number, ticketId: number, upToMessageId: number): Promise<AgentAnswer> {
    const [prompt] = await queryPrepared<PromptEntity>(this.db, PROMPT_OF_QUEUE, [queueId, companyId]);
    if (!prompt) return { kind: 'hand-over', reason: 'the queue has no prompt' };
    const history = await queryPrepared<{ body: string; fromMe: boolean }>(this.db, CONVERSATION_HISTORY, [
      ticketId,
      companyId,
      prompt.maxMessages,
      upToMessageId,
    ]);
    const apiKey = (prompt.apiKey ? this.box.open(prompt.apiKey) : null) || this.env.OPENAI_API_KEY;
    if (!apiKey) return { kind: 'hand-over', reason: 'no API key' };
    const client = new (await loadOpenAI())({
      apiKey,
      baseURL: this.env.OPENAI_BASE_URL,
      timeout: this.env.OPENAI_TIMEOUT_MS,
      maxRetries: 1,
      fetch: cappedFetch({ maxBytes: MODEL_ANSWER_MAX_BYTES, deadlineMs: this.env.OPENAI_TIMEOUT_MS }),
    });
    try {
      const completion = await client.chat.completions.create({
        model: this.env.OPENAI_MODEL,
        max_tokens: prompt.maxTokens,
        temperature: prompt.temperature,
        messages: [
          {
            role: 'system',
            content: `${prompt.prompt}\n\nSe o cliente pedir para falar com um atendente humano, responda apenas: ${HAND_OVER}`,
          },
          ...history.map((m) => ({ role: m.fromMe ? ('assistant' as const) : ('user' as const), content: m.body })),
        ],
      });
      const text = completion.choices[0]?.message?.content?.trim() ?? '';
      if (!text) return { kind: 'hand-over', reason: 'the model answered nothing' };
      if (text.includes(HAND_OVER)) return { kind: 'hand-over', reason: 'the model transferred the conversation' };
      return { kind: 'reply', texts: [text] };
    } catch (err) {
      this.logger.warn(
        { companyId, ticketId, err: err instanceof Error ? err.message : String(err) },
        'prompt: the model failed; the queue’s agents take the conversation',
      );
      return { kind: 'hand-over', reason: 'the model failed' };
    }
  }
}
