import { Injectable } from '@nestjs/common';
import { likeEscaped } from '@wa/database';
import { InjectDataSource } from '@nestjs/typeorm';
import { TicketSubjects, type PromptDto, type PromptRefEvent, type PromptsPage } from '@wa/contracts';
import { DomainError, maskSecret, SecretBox } from '@wa/server-kit';
import { DataSource, ILike, type EntityManager } from 'typeorm';
import { TicketsEnv } from '../../config/env.js';
import { PromptEntity, QueueEntity } from '../../database/entities/index.js';
import { ticketsSecretMaterial, voiceKeyBox } from '../../database/stored-secrets.js';
import type { Caller } from '../../identity/caller.service.js';
import { Outbox } from '../../outbox/outbox.service.js';
import type { CreatePromptDto, ListPromptsQuery, UpdatePromptDto } from './prompts.dto.js';

export const PROMPTS_PAGE_SIZE = 20;

/** The box prompts' API keys are sealed with (the service's key material, the prompts' purpose). */
export function promptKeyBox(env: TicketsEnv): SecretBox {
  return new SecretBox(env.TICKETS_SECRETS_KEY || `dev-only:${env.JWT_SECRET}`, 'prompt-api-key');
}

/**
 * spec 02 "Prompts": the company's AI agents, each answering one queue; the API key and the voice key sealed, shown masked.
 * Each write announces whose prompt it is (`prompt.updated` / `prompt.deleted`, PromptRefEvent: ids only, never
 * a key or the text) through the outbox, in the write's transaction: whatsapp-sessions checks a connection's
 * promptId against them.
 */
@Injectable()
export class PromptsService {
  private readonly box: SecretBox;
  private readonly voiceBox: SecretBox;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    env: TicketsEnv,
    private readonly outbox: Outbox,
  ) {
    this.box = promptKeyBox(env);
    this.voiceBox = voiceKeyBox(ticketsSecretMaterial(env));
  }

  async list(caller: Caller, query: ListPromptsQuery): Promise<PromptsPage> {
    const page = query.pageNumber ?? 1;
    const search = query.searchParam?.trim();
    const [rows, count] = await this.db.getRepository(PromptEntity).findAndCount({
      where: { companyId: caller.companyId, ...(search ? { name: ILike(`%${likeEscaped(search)}%`) } : {}) },
      order: { name: 'ASC', id: 'ASC' },
      skip: (page - 1) * PROMPTS_PAGE_SIZE,
      take: PROMPTS_PAGE_SIZE,
    });
    const queues = await this.queueNames(
      caller,
      rows.map((r) => r.queueId),
    );
    return { prompts: rows.map((r) => this.view(r, queues)), count, hasMore: page * PROMPTS_PAGE_SIZE < count };
  }

  async get(caller: Caller, id: number): Promise<PromptDto> {
    const row = await this.mustFind(caller, id);
    return this.view(row, await this.queueNames(caller, [row.queueId]));
  }

  async create(caller: Caller, dto: CreatePromptDto): Promise<PromptDto> {
    await this.mustFindQueue(caller, dto.queueId);
    const saved = await this.write(caller, 'updated', async (tx) => {
      const repo = tx.getRepository(PromptEntity);
      return repo.save(
        repo.create({
          companyId: caller.companyId,
          name: dto.name.trim(),
          prompt: dto.prompt,
          queueId: dto.queueId,
          voice: dto.voice ?? 'texto',
          voiceKey: dto.voiceKey ? this.voiceBox.seal(dto.voiceKey) : null,
          voiceRegion: dto.voiceRegion ?? null,
          maxTokens: dto.maxTokens ?? 100,
          temperature: dto.temperature ?? 1,
          maxMessages: dto.maxMessages ?? 10,
          apiKey: dto.apiKey ? this.box.seal(dto.apiKey) : null,
        }),
      );
    });
    return this.get(caller, saved.id);
  }

  async update(caller: Caller, id: number, dto: UpdatePromptDto): Promise<PromptDto> {
    const row = await this.mustFind(caller, id);
    if (dto.queueId !== undefined) await this.mustFindQueue(caller, dto.queueId);
    const { apiKey, voiceKey, name, ...rest } = dto;
    Object.assign(row, rest, name !== undefined ? { name: name.trim() } : {});
    // the masked value the form shows back is not a key: the stored one stays
    if (apiKey !== undefined && apiKey !== maskSecret(this.keyOf(row))) row.apiKey = apiKey ? this.box.seal(apiKey) : null;
    if (voiceKey !== undefined && voiceKey !== maskSecret(this.voiceKeyOf(row)))
      row.voiceKey = voiceKey ? this.voiceBox.seal(voiceKey) : null;
    await this.write(caller, 'updated', (tx) => tx.getRepository(PromptEntity).save(row));
    return this.get(caller, id);
  }

  async remove(caller: Caller, id: number): Promise<void> {
    const row = await this.mustFind(caller, id);
    await this.write(caller, 'deleted', async (tx) => {
      await tx.getRepository(PromptEntity).delete({ id, companyId: caller.companyId });
      return row;
    });
  }

  /** A prompt's write and its announcement in one transaction; the outbox publishes once it commits. */
  private async write(
    caller: Caller,
    change: 'updated' | 'deleted',
    run: (tx: EntityManager) => Promise<PromptEntity>,
  ): Promise<PromptEntity> {
    const { saved, ids } = await this.db.transaction(async (tx) => {
      const saved = await run(tx);
      const event: PromptRefEvent = { companyId: caller.companyId, promptId: saved.id };
      const subject =
        change === 'deleted'
          ? TicketSubjects.promptDeleted(caller.companyId, saved.id)
          : TicketSubjects.promptUpdated(caller.companyId, saved.id);
      // one id per prompt and change: the stream drops a repeat in its duplicate window, and nothing else rides on it
      const msgId = change === 'deleted' ? `prompt-deleted:${saved.id}` : `prompt-updated:${saved.id}:${saved.updatedAt.toISOString()}`;
      return { saved, ids: await this.outbox.add(tx, [{ subject, msgId, payload: event }]) };
    });
    await this.outbox.flush(ids);
    return saved;
  }

  /** The stored key in clear (null without one, or when it cannot be opened). */
  keyOf(row: Pick<PromptEntity, 'apiKey'>): string | null {
    return row.apiKey ? this.box.open(row.apiKey) : null;
  }

  /** The stored voice-service key in clear (null without one, or when it cannot be opened). */
  voiceKeyOf(row: Pick<PromptEntity, 'voiceKey'>): string | null {
    return row.voiceKey ? this.voiceBox.open(row.voiceKey) : null;
  }

  private view(row: PromptEntity, queues: Map<number, string>): PromptDto {
    const queueName = queues.get(row.queueId);
    return {
      id: row.id,
      name: row.name,
      prompt: row.prompt,
      voice: row.voice,
      // masked as the API key is ('••••••••' and its last four); the form sends it back unchanged to keep it
      voiceKey: maskSecret(this.voiceKeyOf(row)) || null,
      voiceRegion: row.voiceRegion,
      maxTokens: row.maxTokens,
      temperature: row.temperature,
      apiKey: maskSecret(this.keyOf(row)),
      queueId: row.queueId,
      queue: queueName === undefined ? null : { id: row.queueId, name: queueName },
      maxMessages: row.maxMessages,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  }

  private async queueNames(caller: Caller, ids: number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .getRepository(QueueEntity)
      .find({ where: ids.map((id) => ({ id, companyId: caller.companyId })), select: { id: true, name: true } });
    return new Map(rows.map((q) => [q.id, q.name]));
  }

  private async mustFind(caller: Caller, id: number): Promise<PromptEntity> {
    const row = await this.db.getRepository(PromptEntity).findOneBy({ id, companyId: caller.companyId });
    if (!row) throw new DomainError('ERR_NO_PROMPT_FOUND');
    return row;
  }

  private async mustFindQueue(caller: Caller, queueId: number): Promise<void> {
    if (!(await this.db.getRepository(QueueEntity).existsBy({ id: queueId, companyId: caller.companyId }))) {
      throw new DomainError('ERR_VALIDATION', { details: [{ field: 'queueId', messages: ['Informe o setor'] }] }, 'Informe o setor');
    }
  }
}
