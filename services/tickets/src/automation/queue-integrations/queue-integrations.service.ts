import { Injectable } from '@nestjs/common';
import { likeEscaped } from '@wa/database';
import { InjectDataSource } from '@nestjs/typeorm';
import type { QueueIntegrationDto, QueueIntegrationsPage } from '@wa/contracts';
import { DomainError, SecretBox, invalidField } from '@wa/server-kit';
import { DataSource, ILike } from 'typeorm';
import { TicketsEnv } from '../../config/env.js';
import { QueueIntegrationEntity } from '../../database/entities/index.js';
import type { Caller } from '../../identity/caller.service.js';
import { assertPublicUrl } from '../../platform/address-guard.js';
import {
  DIALOGFLOW_LANGUAGES,
  type CreateQueueIntegrationDto,
  type ListQueueIntegrationsQuery,
  type TestSessionDto,
  type UpdateQueueIntegrationDto,
} from './queue-integrations.dto.js';

export const INTEGRATIONS_PAGE_SIZE = 20;

/** What the form shows of stored credentials: nothing of them, only that there are some. */
const CREDENTIALS_MASK = '••••••••';
const maskedCredentials = (stored: string | null) => (stored ? CREDENTIALS_MASK : '');

/** The box Dialogflow's credentials are sealed with. */
export function integrationBox(env: TicketsEnv): SecretBox {
  return new SecretBox(env.TICKETS_SECRETS_KEY || `dev-only:${env.JWT_SECRET}`, 'queue-integration');
}

/** A Dialogflow service account's JSON: what the official client needs of it (spec 02 testSession). */
export function dialogflowCredentials(json: string): { client_email: string; private_key: string; project_id?: string } | null {
  try {
    const parsed = JSON.parse(json) as Record<string, unknown>;
    if (typeof parsed.client_email !== 'string' || typeof parsed.private_key !== 'string') return null;
    return parsed as { client_email: string; private_key: string; project_id?: string };
  } catch {
    return null;
  }
}

/**
 * spec 02 "Queue integrations": the company's outside flows. Each type's required fields (n8n and webhook a
 * URL, typebot a URL and a slug, dialogflow a project, its credentials and a language); the project name of
 * n8n, webhook and typebot is the name. A URL into the platform's own network is refused (SSRF) unless the
 * operator allows it. Dialogflow's credentials are sealed and answered masked.
 */
@Injectable()
export class QueueIntegrationsService {
  private readonly box: SecretBox;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly env: TicketsEnv,
  ) {
    this.box = integrationBox(env);
  }

  async list(caller: Caller, query: ListQueueIntegrationsQuery): Promise<QueueIntegrationsPage> {
    const page = query.pageNumber ?? 1;
    const search = query.searchParam?.trim();
    const [rows, count] = await this.db.getRepository(QueueIntegrationEntity).findAndCount({
      where: { companyId: caller.companyId, ...(search ? { name: ILike(`%${likeEscaped(search)}%`) } : {}) },
      order: { name: 'ASC', id: 'ASC' },
      skip: (page - 1) * INTEGRATIONS_PAGE_SIZE,
      take: INTEGRATIONS_PAGE_SIZE,
    });
    return { queueIntegrations: rows.map((r) => this.view(r)), count, hasMore: page * INTEGRATIONS_PAGE_SIZE < count };
  }

  async get(caller: Caller, id: number): Promise<QueueIntegrationDto> {
    return this.view(await this.mustFind(caller, id));
  }

  async create(caller: Caller, dto: CreateQueueIntegrationDto): Promise<QueueIntegrationDto> {
    const repo = this.db.getRepository(QueueIntegrationEntity);
    const row = repo.create({ companyId: caller.companyId, type: dto.type, name: dto.name.trim() });
    await this.apply(row, dto);
    return this.view(await repo.save(row));
  }

  async update(caller: Caller, id: number, dto: UpdateQueueIntegrationDto): Promise<QueueIntegrationDto> {
    const row = await this.mustFind(caller, id);
    if (dto.type !== undefined) row.type = dto.type;
    if (dto.name !== undefined) row.name = dto.name.trim();
    await this.apply(row, dto);
    return this.view(await this.db.getRepository(QueueIntegrationEntity).save(row));
  }

  async remove(caller: Caller, id: number): Promise<void> {
    await this.mustFind(caller, id);
    await this.db.getRepository(QueueIntegrationEntity).delete({ id, companyId: caller.companyId });
  }

  /** POST /queueIntegration/testSession: whether Dialogflow credentials are usable as given (their shape; Google is not asked). */
  testSession(dto: TestSessionDto): { ok: true; projectName: string; clientEmail: string; language: string } {
    const credentials = dialogflowCredentials(dto.jsonContent);
    if (!credentials) throw invalidField('jsonContent', 'Credenciais inválidas: JSON de conta de serviço com client_email e private_key');
    if (!dto.projectName.trim()) throw invalidField('projectName', 'Required');
    return { ok: true, projectName: dto.projectName.trim(), clientEmail: credentials.client_email, language: dto.language };
  }

  /** The stored credentials in clear (null without them, or when they cannot be opened). */
  credentialsOf(row: Pick<QueueIntegrationEntity, 'jsonContent'>): string | null {
    return row.jsonContent ? this.box.open(row.jsonContent) : null;
  }

  /** The fields given, then the type's rules over the result. */
  private async apply(row: QueueIntegrationEntity, dto: Partial<CreateQueueIntegrationDto>): Promise<void> {
    const { type: _type, name: _name, jsonContent, ...fields } = dto;
    for (const [k, v] of Object.entries(fields))
      if (v !== undefined) (row as unknown as Record<string, unknown>)[k] = typeof v === 'string' ? v.trim() : v;
    // the masked value the form shows back is not a credential: the stored one stays
    if (jsonContent !== undefined && jsonContent !== maskedCredentials(row.jsonContent))
      row.jsonContent = jsonContent.trim() ? this.box.seal(jsonContent.trim()) : null;
    if (row.type === 'dialogflow') {
      if (!row.projectName) throw invalidField('projectName', 'Required');
      if (!DIALOGFLOW_LANGUAGES.includes(row.language as (typeof DIALOGFLOW_LANGUAGES)[number]))
        throw invalidField('language', 'Idioma inválido');
      const json = this.credentialsOf(row);
      if (!json || !dialogflowCredentials(json))
        throw invalidField('jsonContent', 'Credenciais inválidas: JSON de conta de serviço com client_email e private_key');
      return;
    }
    // n8n, webhook and typebot: the project is the name, the URL is required and must be reachable from outside
    row.projectName = row.name;
    if (!row.urlN8N) throw invalidField('urlN8N', 'Required');
    if (row.type === 'typebot' && !row.typebotSlug) throw invalidField('typebotSlug', 'Required');
    await assertPublicUrl(row.urlN8N, this.env.WEBHOOK_ALLOW_PRIVATE === 'true', 'urlN8N');
  }

  private view(r: QueueIntegrationEntity): QueueIntegrationDto {
    return {
      id: r.id,
      type: r.type,
      name: r.name,
      projectName: r.projectName,
      jsonContent: maskedCredentials(r.jsonContent),
      language: r.language,
      urlN8N: r.urlN8N,
      typebotSlug: r.typebotSlug,
      typebotExpires: r.typebotExpires,
      typebotKeywordFinish: r.typebotKeywordFinish,
      typebotKeywordRestart: r.typebotKeywordRestart,
      typebotUnknownMessage: r.typebotUnknownMessage,
      typebotRestartMessage: r.typebotRestartMessage,
      typebotDelayMessage: r.typebotDelayMessage,
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    };
  }

  private async mustFind(caller: Caller, id: number): Promise<QueueIntegrationEntity> {
    const row = await this.db.getRepository(QueueIntegrationEntity).findOneBy({ id, companyId: caller.companyId });
    if (!row) throw new DomainError('ERR_NO_INTEGRATION_FOUND');
    return row;
  }
}
