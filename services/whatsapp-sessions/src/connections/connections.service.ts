import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { WhatsappDto } from '@wa/contracts';
import { DomainError } from '@wa/server-kit';
import { assertPlanRoom, PlanLimitsClient } from '@wa/auth';
import { DataSource, QueryFailedError, type EntityManager } from 'typeorm';
import { defaultChannel, sandboxAllowed, WhatsappSessionsEnv } from '../config/env.js';
import { ConnectionEntity } from '../database/entities/connection.entity.js';
import { SessionRuntime } from '../runtime/session-runtime.js';
import { ConnectionEvents } from '../outbox/connection-events.js';
import { ConnectionTokens } from './connection-tokens.js';
import { connectionView } from '../outbox/connection-view.js';
import type { CreateConnectionDto, UpdateConnectionDto } from './connections.dto.js';
import { ConnectionsRepository } from './connections.repository.js';
import { CompanyRefs } from './company-refs.js';

const NAME_TAKEN = 'This whatsapp name is already used.';
/**
 * Every refused token gets this answer, whatever the reason (too short, other characters, used by another
 * connection of any company): the answer never tells whether a value is someone's token.
 */
const TOKEN_REFUSED =
  'Use at least 32 letters, digits, - or _ that no other connection uses, or leave it empty for one made by the server.';
const SANDBOX_OFF = 'The sandbox channel is not available on this platform.';

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
    private readonly sessions: SessionRuntime,
    private readonly env: WhatsappSessionsEnv,
    private readonly tokens: ConnectionTokens,
    private readonly planLimits: PlanLimitsClient,
    private readonly refs: CompanyRefs,
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
    const channel = dto.channel ?? defaultChannel(this.env);
    if (channel === 'sandbox') this.requireSandbox();
    await this.refs.assertOwn(this.connections.company(), dto);
    const limits = await this.planLimits.of(this.connections.company());
    const { created } = await this.unique(() =>
      this.db.transaction(async (tx) => {
        await this.connections.lockCompany(tx);
        const token = await this.tokenToStore(dto.token || null, null, tx);
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
            ...token,
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
            channel,
            promptId: dto.promptId ?? null,
            queueIds: unique(dto.queueIds ?? []),
            campaignDailyLimit: dto.campaignDailyLimit ?? 0,
            campaignWarmup: dto.campaignWarmup ?? false,
            campaignHours: dto.campaignHours ?? '',
          },
          tx,
        );
        await this.events.add(
          tx,
          [...changed, created].map((r) => ConnectionEvents.updated(r)),
        );
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
        if (dto.channel === 'sandbox' && current.channel !== 'sandbox') this.requireSandbox();
        await this.refs.assertOwn(current.companyId, dto);
        const tokenChange = dto.token === undefined ? {} : await this.tokenToStore(dto.token || null, current, tx);
        const changed = dto.isDefault === true && !current.isDefault ? await this.connections.unsetDefaults(tx, id) : [];
        const channelChanged = dto.channel !== undefined && dto.channel !== current.channel;
        // the token's columns come from tokenToStore only
        const next: ConnectionEntity = Object.assign(
          new ConnectionEntity(),
          current,
          withoutUndefined({ ...dto, token: undefined }),
          tokenChange,
        );
        if (dto.queueIds) next.queueIds = unique(dto.queueIds);
        next.isDefault = current.isDefault || dto.isDefault === true;
        const updated = await this.connections.save(next, tx);
        await this.events.add(
          tx,
          [...changed, updated].map((r) => ConnectionEvents.updated(r)),
        );
        return { updated, changed, channelChanged };
      }),
    );
    this.events.flush();
    if (channelChanged && updated.status !== 'DISCONNECTED') {
      // the session is now held by another kind of provider
      await this.sessions
        .command(id, { action: 'restart' })
        .catch((err: unknown) => this.logger.error({ err, connectionId: id }, 'session not restarted'));
    }
    return this.view((await this.connections.byId(id)) ?? updated);
  }

  /** A new API token drawn by the server; the old one stops working at once. */
  regenerateToken(id: number): Promise<WhatsappDto> {
    return this.update(id, { token: null });
  }

  /**
   * What to store of a token given on create or update: none given (null, empty), a new one drawn here; the
   * connection's own current token, unchanged; else the admin's, when it looks random (TOKEN_MIN_LENGTH and
   * more of letters, digits, - and _) and no other connection of any company has it. Every refusal is the
   * same answer (tokenRefused), so it never tells whether a value is another company's token.
   */
  private async tokenToStore(
    given: string | null,
    current: ConnectionEntity | null,
    tx: EntityManager,
  ): Promise<{ token: string | null; tokenHash: string | null } | Record<string, never>> {
    if (given === null) return this.tokens.seal(this.tokens.issue());
    const hash = this.tokens.hashOf(given);
    if (current && current.tokenHash === hash) return {};
    if (!ConnectionTokens.acceptable(given)) throw tokenRefused();
    if (await this.tokens.taken(given, tx)) throw tokenRefused();
    return this.tokens.seal(given);
  }

  private requireSandbox(): void {
    if (!sandboxAllowed(this.env))
      throw new DomainError('ERR_VALIDATION', { details: [{ field: 'channel', messages: [SANDBOX_OFF] }] }, `channel: ${SANDBOX_OFF}`);
  }

  /** Ends the session (unpairs), deletes the connection, promotes another default if it was the default. */
  async remove(id: number): Promise<void> {
    const current = await this.mustFind(id);
    await this.sessions
      .command(id, { action: 'end' })
      .catch((err: unknown) => this.logger.warn({ err, connectionId: id }, 'session not ended before delete'));
    await this.db.transaction(async (tx) => {
      await this.connections.lockCompany(tx);
      if ((await this.connections.delete({ id }, tx)) === 0) throw new DomainError('ERR_NO_WAPP_FOUND');
      const promoted = await this.connections.promoteOldest(tx);
      await this.events.add(tx, [
        ConnectionEvents.deleted(current.companyId, id),
        ...(promoted ? [ConnectionEvents.updated(promoted)] : []),
      ]);
    });
    this.events.flush();
    await this.sessions.forget(id);
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
        throw tokenRefused();
      }
      throw err;
    }
  }
}

function requireGreeting(queueIds: number[], greeting: string): void {
  if (unique(queueIds).length > 1 && greeting.trim() === '') throw new DomainError('ERR_WAPP_GREETING_REQUIRED');
}

function tokenRefused(): DomainError {
  return new DomainError('ERR_VALIDATION', { details: [{ field: 'token', messages: [TOKEN_REFUSED] }] }, `token: ${TOKEN_REFUSED}`);
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
