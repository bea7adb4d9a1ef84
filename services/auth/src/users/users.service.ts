import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { assertPlanRoom, directoryPutEvent, directoryRemoveEvent, TokenRevocation } from '@wa/auth';
import {
  Subjects,
  type AccessTokenClaims,
  type UserChangedEvent,
  type UserDeletedEvent,
  type UserDto,
  type UsersPage,
} from '@wa/contracts';
import { DomainError, invalidField, runInContext, currentContext } from '@wa/server-kit';
import argon2 from 'argon2';
import { isUniqueViolation } from '@wa/database';
import { DataSource, type EntityManager } from 'typeorm';
import { CompanyRefs } from '../company-refs/company-refs.js';
import { planLimitsOf } from '../company-access/company-access.service.js';
import { CompaniesRepository } from '../companies/companies.repository.js';
import { UserEntity } from '../database/entities/user.entity.js';
import { PlansRepository } from '../plans/plans.repository.js';
import { Outbox, type OutgoingEvent } from '../outbox/outbox.service.js';
import { SessionsService } from '../sessions/sessions.service.js';
import type { CreateUserDto, UpdateUserDto } from './users.dto.js';
import { USERS_PAGE_SIZE, UsersRepository } from './users.repository.js';
import { directoryEntry, userView } from './user-view.js';

const isAdmin = (c: AccessTokenClaims) => c.profile === 'admin' || c.super;

@Injectable()
export class UsersService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly users: UsersRepository,
    private readonly companies: CompaniesRepository,
    private readonly plans: PlansRepository,
    private readonly sessions: SessionsService,
    private readonly revocation: TokenRevocation,
    private readonly outbox: Outbox,
    private readonly refs: CompanyRefs,
  ) {}

  async list(searchParam: string | undefined, pageNumber = 1): Promise<UsersPage> {
    const { users, count } = await this.users.page(searchParam, pageNumber);
    return { users: users.map((u) => userView(u)), count, hasMore: count > pageNumber * USERS_PAGE_SIZE };
  }

  names(): Promise<Array<{ id: number; name: string }>> {
    return this.users.names();
  }

  async get(id: number): Promise<UserDto> {
    return userView(await this.mustFind(id));
  }

  async create(caller: AccessTokenClaims, dto: CreateUserDto): Promise<UserDto> {
    const companyId = caller.super && dto.companyId ? dto.companyId : caller.companyId;
    if (companyId !== caller.companyId && !(await this.companies.exists(companyId))) {
      throw invalidField('companyId', 'company not found');
    }
    if (await this.users.emailTaken(dto.email)) throw new DomainError('ERR_EMAIL_ALREADY_EXISTS');
    await this.assertOwnRefs(companyId, dto);
    const passwordHash = await argon2.hash(dto.password, { type: argon2.argon2id });
    const { user, outboxIds } = await runInContext({ ...(currentContext() ?? { requestId: 'internal' }), companyId }, () =>
      this.saveUnique(() =>
        this.db.transaction(async (tx) => {
          await this.assertUserRoom(tx, companyId);
          const created = await this.users.create(
            {
              name: dto.name.trim(),
              email: dto.email.trim().toLowerCase(),
              passwordHash,
              profile: dto.profile ?? 'user',
              allTicket: dto.allTicket ?? 'desabled',
              whatsappId: dto.whatsappId ?? null,
              queueIds: [...new Set(dto.queueIds ?? [])],
              super: false,
            },
            tx,
          );
          return { user: created, outboxIds: await this.outbox.add(tx, userChanged('created', created)) };
        }),
      ),
    );
    await this.announce(outboxIds, user);
    return userView(user);
  }

  /** The plan's count of users (0: no limit), checked under the company's lock so two creates cannot both pass. */
  private async assertUserRoom(tx: EntityManager, companyId: number): Promise<void> {
    await this.users.lockCreation(tx, companyId);
    const company = await this.companies.find(tx, companyId);
    const plan = company ? await this.plans.find(company.planId, tx) : null;
    assertPlanRoom(plan ? planLimitsOf(plan) : null, 'users', await this.users.countInCompany(companyId, tx));
  }

  /**
   * Admins edit anyone of their company; an agent only their own name and password
   * (sending their own unchanged values for the other fields is allowed, changing them is not).
   */
  async update(caller: AccessTokenClaims, id: number, dto: UpdateUserDto): Promise<UserDto> {
    const user = await this.mustFind(id);
    assertMayManage(caller, user);
    if (!isAdmin(caller)) {
      if (caller.id !== user.id) throw new DomainError('ERR_NO_PERMISSION');
      const sameQueues = dto.queueIds === undefined || sameSet(dto.queueIds, user.queueIds);
      const changesOthers =
        (dto.profile !== undefined && dto.profile !== user.profile) ||
        (dto.allTicket !== undefined && dto.allTicket !== user.allTicket) ||
        (dto.whatsappId !== undefined && dto.whatsappId !== user.whatsappId) ||
        (dto.email !== undefined && dto.email.trim().toLowerCase() !== user.email) ||
        !sameQueues;
      if (changesOthers) throw new DomainError('ERR_NO_PERMISSION');
    }
    const ownPassword = !!dto.password && caller.id === user.id;
    // one's own password changes only with the current one: a stolen session cannot lock its owner out
    if (ownPassword && !(await this.isCurrentPassword(user.id, dto.oldPassword))) {
      throw invalidField('oldPassword', 'Senha atual incorreta');
    }
    if (dto.email && (await this.users.emailTaken(dto.email.trim(), user.id))) throw new DomainError('ERR_EMAIL_ALREADY_EXISTS');
    // only what the change adds is checked: a queue deleted since stays until the user is edited without it
    await this.assertOwnRefs(user.companyId, {
      queueIds: dto.queueIds?.filter((id) => !user.queueIds.includes(id)),
      whatsappId: dto.whatsappId !== user.whatsappId ? dto.whatsappId : undefined,
    });
    const patch: Partial<UserEntity> = {};
    if (dto.name !== undefined) patch.name = dto.name.trim();
    if (dto.email !== undefined) patch.email = dto.email.trim().toLowerCase();
    if (dto.password) patch.passwordHash = await argon2.hash(dto.password, { type: argon2.argon2id });
    if (dto.profile !== undefined) patch.profile = dto.profile;
    if (dto.allTicket !== undefined) patch.allTicket = dto.allTicket;
    if (dto.whatsappId !== undefined) patch.whatsappId = dto.whatsappId;
    if (dto.queueIds !== undefined) patch.queueIds = [...new Set(dto.queueIds)];
    const { updated, outboxIds, ended } = await this.saveUnique(() =>
      this.db.transaction(async (tx) => {
        if (Object.keys(patch).length > 0) await this.users.update({ id }, patch, tx);
        const row = await this.mustFind(id, tx);
        // a new password ends the user's logins: all of them when an admin set it, the others when they did
        const ended = patch.passwordHash
          ? await this.sessions.endAllSessions(tx, id, { keep: ownPassword ? caller.sid : undefined, reason: 'password_changed' })
          : [];
        return { updated: row, ended, outboxIds: await this.outbox.add(tx, userChanged('updated', row)) };
      }),
    );
    await this.announce(outboxIds, updated);
    await this.revocation.revokeSessions(ended);
    // tokens carry the profile: those signed before a change of it are refused (the next refresh has the new one)
    if (updated.profile !== user.profile) await this.revocation.revokeUserTokensBefore(id);
    return userView(updated);
  }

  async remove(caller: AccessTokenClaims, id: number): Promise<void> {
    const user = await this.mustFind(id);
    assertMayManage(caller, user);
    const { ended, outboxIds } = await this.db.transaction(async (tx) => {
      const sessions = await this.sessions.endAllSessions(tx, id);
      if ((await this.users.delete({ id }, tx)) === 0) throw new DomainError('ERR_NO_USER_FOUND'); // removed meanwhile
      const event: UserDeletedEvent = { companyId: user.companyId, userId: id, at: new Date().toISOString() };
      const ids = await this.outbox.add(tx, [
        // the directory first: the agent's next request anywhere sees the change
        directoryRemoveEvent(user.companyId, id),
        { subject: Subjects.userDeleted(user.companyId, id), msgId: `user-deleted:${id}`, payload: event },
      ]);
      return { ended: sessions, outboxIds: ids };
    });
    // the user directory is read on every request elsewhere: the change applies on the next one
    await this.outbox.flushAndWait(outboxIds);
    await Promise.all([this.revocation.revokeUser(id), this.revocation.revokeSessions(ended)]);
  }

  /**
   * The user directory is read on every request elsewhere: the entry is published, then its version pushed
   * to every reader (before this request answers), so the change applies on the user's very next request.
   */
  private async announce(outboxIds: string[], user: UserEntity): Promise<void> {
    if (await this.outbox.flushAndWait(outboxIds))
      await this.revocation.announceUserVersion(user.companyId, user.id, user.updatedAt.getTime());
  }

  /** The queues and the connection of a user's body must be of the user's company (400, nothing written). */
  private async assertOwnRefs(companyId: number, dto: { queueIds?: number[]; whatsappId?: number | null }): Promise<void> {
    if (dto.queueIds?.length) await this.refs.assertOwn(companyId, 'queue', dto.queueIds, 'queueIds');
    if (typeof dto.whatsappId === 'number') await this.refs.assertOwn(companyId, 'connection', [dto.whatsappId], 'whatsappId');
  }

  private async isCurrentPassword(id: number, password: string | undefined): Promise<boolean> {
    if (!password) return false;
    const hash = await this.users.passwordHashOf(id);
    return hash !== '' && (await argon2.verify(hash, password));
  }

  private async mustFind(id: number, manager?: EntityManager): Promise<UserEntity> {
    const user = Number.isSafeInteger(id) ? await this.users.findOne({ id }, {}, manager) : null;
    if (!user) throw new DomainError('ERR_NO_USER_FOUND');
    return user;
  }

  /** The unique index on lower(email) is the last word when two requests race. */
  private async saveUnique<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw new DomainError('ERR_EMAIL_ALREADY_EXISTS');
      }
      throw err;
    }
  }
}

/** A super user (the provider's staff) is changed or removed by super users only, not by their company's admins. */
function assertMayManage(caller: AccessTokenClaims, target: UserEntity): void {
  if (target.super && !caller.super) throw new DomainError('ERR_NO_PERMISSION');
}

/** A created or updated user: their directory entry first (the agent's next request anywhere sees the change), then the event. */
export function userChanged(kind: 'created' | 'updated', user: UserEntity): OutgoingEvent[] {
  const event: UserChangedEvent = {
    companyId: user.companyId,
    userId: user.id,
    name: user.name,
    email: user.email,
    profile: user.profile,
    queueIds: user.queueIds,
    allTicket: user.allTicket,
    super: user.super,
    at: user.updatedAt.toISOString(),
  };
  const subject = kind === 'created' ? Subjects.userCreated(user.companyId, user.id) : Subjects.userUpdated(user.companyId, user.id);
  return [
    directoryPutEvent(directoryEntry(user), user.updatedAt.getTime()),
    { subject, msgId: `user-${kind}:${user.id}:${user.updatedAt.getTime()}`, payload: event },
  ];
}

function sameSet(a: number[], b: number[]): boolean {
  const sa = new Set(a);
  return sa.size === new Set(b).size && b.every((x) => sa.has(x));
}
