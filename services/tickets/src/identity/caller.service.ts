import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { seesAllTickets, TokenRevocation, UserDirectory, type DirectoryMirror } from '@wa/auth';
import type { AccessTokenClaims, AllTicket, Profile } from '@wa/contracts';
import { DomainError } from '@wa/server-kit';

/** ERR_NO_USER_FOUND's text as the app shows it (spec 01 §8): a body's userId of no user of the company. */
const USER_NOT_FOUND = 'Nenhum usuário encontrado com este ID.';

export interface Caller {
  id: number;
  companyId: number;
  profile: Profile;
  /** a super user (the provider's staff) */
  super: boolean;
  /** admin or super user: sees every ticket of the company */
  isAdmin: boolean;
  queueIds: number[];
  /** `enabled`: also sees tickets without queue and holder */
  allTicket: AllTicket;
  name: string;
}

/**
 * Who is asking, with their current queues: the user directory that auth writes on every change, kept
 * in memory by a watch. Auth also pushes the entry's new version through Redis before it answers the admin
 * (kept in memory here too, with the revocations); a copy older than that waits for the watch, so an admin's
 * change applies on the agent's very next request. While the watch is not live, the bucket is read per request.
 * Names of other users (for ticket cards) come from the same copy.
 */
@Injectable()
export class CallerService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(CallerService.name);
  private mirror: DirectoryMirror | undefined;

  constructor(
    private readonly directory: UserDirectory,
    private readonly revocation: TokenRevocation,
  ) {}

  async onModuleInit(): Promise<void> {
    this.mirror = await this.directory.mirror();
  }

  onApplicationShutdown(): void {
    this.mirror?.stop();
  }

  async of(claims: AccessTokenClaims): Promise<Caller> {
    // the version auth announced last (from memory): an older copy here is not used
    const announced = await this.revocation.userVersion(claims.companyId, claims.id).catch(() => 0);
    const local = await this.mirror?.lookupAtLeast(claims.companyId, claims.id, announced);
    const user =
      local !== undefined
        ? local
        : await this.directory.get(claims.companyId, claims.id).catch((err) => {
            this.logger.warn({ err: String(err) }, 'user directory unavailable; using the token alone');
            return null;
          });
    const profile = user?.profile ?? claims.profile;
    return {
      id: claims.id,
      companyId: claims.companyId,
      profile,
      super: claims.super,
      isAdmin: seesAllTickets({ profile, super: claims.super }),
      queueIds: user?.queueIds ?? [],
      allTicket: user?.allTicket === 'enabled' ? 'enabled' : 'desabled',
      name: user?.name ?? '',
    };
  }

  /**
   * Refuses an id of a user who is not of the company (a body's ids are checked like the path's): the
   * directory holds each user under their company, so another company's user is not found here. The refusal
   * says it in the product's words (ERR_NO_USER_FOUND's text in spec 01 §8's catalogue, as the app shows it).
   */
  async assertCompanyUser(companyId: number, userId: number): Promise<void> {
    const announced = await this.revocation.userVersion(companyId, userId).catch(() => 0);
    const local = await this.mirror?.lookupAtLeast(companyId, userId, announced);
    const user = local !== undefined ? local : await this.directory.get(companyId, userId);
    if (!user || user.companyId !== companyId) {
      throw new DomainError('ERR_VALIDATION', { details: [{ field: 'userId', messages: [USER_NOT_FOUND] }] }, USER_NOT_FOUND);
    }
  }

  /** The company's users as the directory has them (id, name, profile), by name. */
  usersOf(companyId: number): Array<{ id: number; name: string; profile: Profile }> {
    return (this.mirror?.usersOf(companyId) ?? [])
      .map((u) => ({ id: u.id, name: u.name, profile: u.profile }))
      .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
  }

  companyCount(): number {
    return this.mirror?.companyCount() ?? 0;
  }

  nameOf(companyId: number, userId: number): string {
    return this.mirror?.nameOf(companyId, userId) ?? '';
  }

  /** The caller's name as others see it (greetings, notes): the directory's, else the mirror's. */
  displayName(caller: Caller): string {
    return caller.name || this.nameOf(caller.companyId, caller.id);
  }
}
