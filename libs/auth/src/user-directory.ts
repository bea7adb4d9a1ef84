import type { AllTicket, Profile } from '@wa/contracts';
import type { KV, NatsConnection } from 'nats';

/** What other services need to know of a user: their profile and queues. */
export interface DirectoryUser {
  id: number;
  companyId: number;
  name: string;
  profile: Profile;
  queueIds: number[];
  allTicket: AllTicket;
  super: boolean;
}

export const USER_DIRECTORY_BUCKET = 'users';

const key = (companyId: number, userId: number) => `${companyId}.${userId}`;

/**
 * A JetStream key-value bucket that auth writes on every change of a user (and at each sign-in),
 * so tickets and realtime-gateway read a user's current queues without calling auth, and an admin's
 * change applies on the agent's very next request.
 */
export class UserDirectory {
  private constructor(private readonly kv: KV) {}

  static async open(nc: NatsConnection): Promise<UserDirectory> {
    const kv = await nc.jetstream().views.kv(USER_DIRECTORY_BUCKET, { history: 1 });
    return new UserDirectory(kv);
  }

  async put(user: DirectoryUser): Promise<void> {
    await this.kv.put(key(user.companyId, user.id), JSON.stringify(user));
  }

  async remove(companyId: number, userId: number): Promise<void> {
    await this.kv.delete(key(companyId, userId));
  }

  async get(companyId: number, userId: number): Promise<DirectoryUser | null> {
    const entry = await this.kv.get(key(companyId, userId));
    if (!entry || entry.operation !== 'PUT' || entry.length === 0) return null;
    return entry.json<DirectoryUser>();
  }

  /** Current values first, then every change; `null` user means deleted. */
  async watch(onChange: (companyId: number, userId: number, user: DirectoryUser | null) => void): Promise<() => void> {
    const iter = await this.kv.watch();
    void (async () => {
      for await (const e of iter) {
        const [companyId, userId] = e.key.split('.').map(Number);
        onChange(companyId, userId, e.operation === 'PUT' && e.length > 0 ? e.json<DirectoryUser>() : null);
      }
    })();
    return () => iter.stop();
  }
}
