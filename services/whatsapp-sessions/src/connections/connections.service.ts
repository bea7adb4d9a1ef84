import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { WhatsappDto } from '@wa/contracts';
import { DomainError } from '@wa/server-kit';
import { assertPlanRoom, PlanLimitsClient } from '@wa/auth';
import { DataSource, QueryFailedError } from 'typeorm';
import { WhatsappSessionsEnv } from '../config/env.js';
import { ConnectionEntity } from '../database/entities/connection.entity.js';
import { CommandRouter } from '../runtime/command-router.js';
import { OutboundConsumer } from '../runtime/outbound-consumer.js';
import { ConnectionEvents } from './connection-events.js';
import { ConnectionTokens } from './connection-tokens.js';
import { connectionView } from './connection-view.js';
import type { CreateConnectionDto, UpdateConnectionDto } from './connections.dto.js';
import { ConnectionsRepository } from './connections.repository.js';

const NAME_TAKEN = 'This whatsapp name is already used.';
const TOKEN_TAKEN = 'This token is already used by another connection.';

/**
 * The rules of connections: the first of a company is its default, making one default unsets the
 * others (one transaction), the default is never simply switched off (make another one default
 * instead: ERR_NO_OTHER_WHATSAPP) and deleting it promotes the oldest remaining connection;
 * more than one queue needs a greeting.
 */
@Injectable()
export class ConnectionsService {
  private readonly logger = new Logger(ConnectionsService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly connections: ConnectionsRepository,
    private readonly events: ConnectionEvents,
    private readonly sessions: CommandRouter,
    private readonly outbound: OutboundConsumer,
    private readonly env: WhatsappSessionsEnv,
    private readonly tokens: ConnectionTokens,
    private readonly planLimits: PlanLimitsClient,
  ) {}

  async list(): Promise<WhatsappDto[]> {
    return (await this.connections.list()).map((row) => this.view(row));
  }

  async get(id: number): Promise<WhatsappDto> {
    return this.view(await this.mustFind(id));
  }

  /** Creates the connection and starts its session (as the product does). */
  async create(dto: CreateConnectionDto): Promise<WhatsappDto> {
    requireGreeting(dto.queueIds ?? [], dto.greetingMessage ?? '');
    const limits = await this.planLimits.of(this.connections.company());
    const { created } = await this.unique(() =>
      this.db.transaction(async (tx) => {
        await this.connections.lockCompany(tx);
        if (await this.connections.nameTaken(dto.name, undefined, tx)) throw nameTaken();
        const existing = await this.connections.count(tx);
        // the plan's count of connections, checked under the company's lock
        assertPlanRoom(limits, 'connections', existing);
        const isDefault = dto.isDefault === true || existing === 0;
        const changed = isDefault ? await this.connections.unsetDefaults(tx) : [];
        const created = await this.connections.create(
          {
            name: dto.name,
            isDefault,
            status: 'DISCONNECTED',
            ...this.tokens.seal(dto.token),
            greetingMessage: dto.greetingMessage ?? '',
            complationMessage: dto.complationMessage ?? '',
            outOfHoursMessage: dto.outOfHoursMessage ?? '',
            ratingMessage: dto.ratingMessage ?? '',
            expiresInactiveMessage: dto.expiresInactiveMessage ?? '',
            expiresTicket: dto.expiresTicket ?? 0,
            timeToTransfer: dto.timeToTransfer ?? 0,
            transferQueueId: dto.transferQueueId ?? null,
            timeUseBotQueues: dto.timeUseBotQueues ?? 0,
            maxUseBotQueues: dto.maxUseBotQueues ?? 3,
            provider: dto.provider ?? 'beta',
            channel: dto.channel ?? this.env.DEFAULT_CHANNEL,
            promptId: dto.promptId ?? null,
            queueIds: unique(dto.queueIds ?? []),
          },
          tx,
        );
        await this.events.add(tx, [...changed, created].map((r) => ConnectionEvents.updated(r)));
        return { created, changed };
      }),
    );
    this.events.flush();
    try {
      await this.sessions.command(created.id, { action: 'start' });
    } catch (err) {
      this.logger.error({ err, connectionId: created.id }, 'session of the new connection not started');
    }
    return this.view((await this.connections.byId(created.id)) ?? created);
  }

  async update(id: number, dto: UpdateConnectionDto): Promise<WhatsappDto> {
    const { updated, channelChanged } = await this.unique(() =>
      this.db.transaction(async (tx) => {
        await this.connections.lockCompany(tx);
        const current = await this.connections.byId(id, tx);
        if (!current) throw new DomainError('ERR_NO_WAPP_FOUND');
        requireGreeting(dto.queueIds ?? current.queueIds, dto.greetingMessage ?? current.greetingMessage);
        if (dto.name !== undefined && (await this.connections.nameTaken(dto.name, id, tx))) throw nameTaken();
        if (dto.isDefault === false && current.isDefault) throw new DomainError('ERR_NO_OTHER_WHATSAPP');
        const changed = dto.isDefault === true && !current.isDefault ? await this.connections.unsetDefaults(tx, id) : [];
        const channelChanged = dto.channel !== undefined && dto.channel !== current.channel;
        const { token, ...fields } = dto;
        const next: ConnectionEntity = Object.assign(new ConnectionEntity(), current, withoutUndefined(fields), token === undefined ? {} : this.tokens.seal(token));
        if (dto.queueIds) next.queueIds = unique(dto.queueIds);
        next.isDefault = current.isDefault || dto.isDefault === true;
        const updated = await this.connections.save(next, tx);
        await this.events.add(tx, [...changed, updated].map((r) => ConnectionEvents.updated(r)));
        return { updated, changed, channelChanged };
      }),
    );
    this.events.flush();
    if (channelChanged && updated.status !== 'DISCONNECTED') {
      // the session is now held by another kind of provider
      await this.sessions.command(id, { action: 'restart' }).catch((err: unknown) => this.logger.error({ err, connectionId: id }, 'session not restarted'));
    }
    return this.view((await this.connections.byId(id)) ?? updated);
  }

  /** Ends the session (unpairs), deletes the connection, promotes another default if it was the default. */
  async remove(id: number): Promise<void> {
    const current = await this.mustFind(id);
    await this.sessions.command(id, { action: 'end' }).catch((err: unknown) => this.logger.warn({ err, connectionId: id }, 'session not ended before delete'));
    await this.db.transaction(async (tx) => {
      await this.connections.lockCompany(tx);
      if ((await this.connections.delete({ id }, tx)) === 0) throw new DomainError('ERR_NO_WAPP_FOUND');
      const promoted = await this.connections.promoteOldest(tx);
      await this.events.add(tx, [ConnectionEvents.deleted(current.companyId, id), ...(promoted ? [ConnectionEvents.updated(promoted)] : [])]);
    });
    this.events.flush();
    await this.outbound.forget(id);
  }

  /** As the API shows it, the token opened (the controller keeps it from agents). */
  private view(row: ConnectionEntity): WhatsappDto {
    return connectionView(row, this.tokens.open(row.token));
  }

  private async mustFind(id: number): Promise<ConnectionEntity> {
    const c = await this.connections.byId(id);
    if (!c) throw new DomainError('ERR_NO_WAPP_FOUND');
    return c;
  }

  /** The unique indexes are the last word when two requests race. */
  private async unique<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      const driver = err instanceof QueryFailedError ? (err.driverError as { code?: string; constraint?: string }) : undefined;
      if (driver?.code === '23505' && driver.constraint === 'connections_company_name') throw nameTaken();
      if (driver?.code === '23505' && driver.constraint === 'connections_token') {
        throw new DomainError('ERR_VALIDATION', { details: [{ field: 'token', messages: [TOKEN_TAKEN] }] }, `token: ${TOKEN_TAKEN}`);
      }
      throw err;
    }
  }
}

function requireGreeting(queueIds: number[], greeting: string): void {
  if (unique(queueIds).length > 1 && greeting.trim() === '') throw new DomainError('ERR_WAPP_GREETING_REQUIRED');
}

function nameTaken(): DomainError {
  return new DomainError('ERR_VALIDATION', { details: [{ field: 'name', messages: [NAME_TAKEN] }] }, `name: ${NAME_TAKEN}`);
}

function unique(ids: number[]): number[] {
  return [...new Set(ids)];
}

function withoutUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
