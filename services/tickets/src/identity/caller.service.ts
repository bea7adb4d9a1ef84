import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { UserDirectory } from '@wa/auth';
import type { AccessTokenClaims, Profile } from '@wa/contracts';

export interface Caller {
  id: number;
  companyId: number;
  profile: Profile;
  isAdmin: boolean;
  queueIds: number[];
  name: string;
}

/**
 * Who is asking, with their current queues: read from the user directory that auth writes on every
 * change, on every request, so an admin's change applies on the agent's very next request.
 * Names of other users (for ticket cards) come from a local copy kept in step by the directory's watch.
 */
@Injectable()
export class CallerService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(CallerService.name);
  private readonly names = new Map<string, string>();
  private stopWatch: (() => void) | undefined;

  constructor(private readonly directory: UserDirectory) {}

  async onModuleInit(): Promise<void> {
    this.stopWatch = await this.directory.watch((companyId, userId, user) => {
      if (user) this.names.set(`${companyId}.${userId}`, user.name);
      else this.names.delete(`${companyId}.${userId}`);
    });
  }

  onApplicationShutdown(): void {
    this.stopWatch?.();
  }

  async of(claims: AccessTokenClaims): Promise<Caller> {
    const user = await this.directory.get(claims.companyId, claims.id).catch((err) => {
      this.logger.warn({ err: String(err) }, 'user directory unavailable; using the token alone');
      return null;
    });
    const profile = user?.profile ?? claims.profile;
    return {
      id: claims.id,
      companyId: claims.companyId,
      profile,
      isAdmin: profile === 'admin' || claims.super,
      queueIds: user?.queueIds ?? [],
      name: user?.name ?? '',
    };
  }

  nameOf(companyId: number, userId: number): string {
    return this.names.get(`${companyId}.${userId}`) ?? '';
  }
}
