import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import {
  BufferJSON,
  initAuthCreds,
  proto,
  type AuthenticationCreds,
  type AuthenticationState,
  type SignalDataSet,
  type SignalDataTypeMap,
} from '@whiskeysockets/baileys';
import { SecretBox } from '@wa/server-kit';
import { WhatsappSessionsEnv } from '../../../config/env.js';
import { AuthStateRepository } from './auth-state.repository.js';

const CREDS = 'creds';

export interface StateWrite {
  category: string;
  id: string;
  /** null deletes */
  value: unknown;
}

/** Rows sealed per statement when the service seals those stored in clear. */
const SEAL_BATCH = 500;

/**
 * Rows of `whatsapp.session_state` (auth-state.repository.ts): Baileys' creds (category `creds`) and signal keys (category = key
 * type, id = key id), each as JSON written with Baileys' BufferJSON (buffers as base64), never on disk.
 * The JSON is sealed at rest (AES-256-GCM, SecretBox; key derived from CONNECTION_TOKEN_KEY for this purpose
 * alone): whoever reads the table or a backup cannot take over the phone's WhatsApp. Rows written before
 * were in clear: they are read as they are and sealed when the service starts.
 * Writes of one connection are applied in order, each batch in one transaction.
 */
@Injectable()
export class AuthStateStore implements OnApplicationBootstrap {
  private readonly log = new Logger(AuthStateStore.name);
  private readonly writes = new Map<number, Promise<void>>();
  private readonly box: SecretBox;

  constructor(
    private readonly rows: AuthStateRepository,
    env: WhatsappSessionsEnv,
  ) {
    this.box = new SecretBox(env.CONNECTION_TOKEN_KEY || `dev-only:${env.JWT_SECRET}`, 'session-state');
  }

  /** Seals the rows stored in clear (before sealing existed), a batch at a time. */
  async onApplicationBootstrap(): Promise<void> {
    let sealed = 0;
    for (;;) {
      const rows = await this.rows.inClear(SEAL_BATCH);
      if (rows.length === 0) break;
      // only a row still in clear is replaced (a session writing meanwhile wins)
      await this.rows.replaceIfUnchanged(
        rows,
        rows.map((r) => this.box.seal(r.value)),
      );
      sealed += rows.length;
      if (rows.length < SEAL_BATCH) break;
    }
    if (sealed > 0) this.log.log({ sealed }, 'session keys stored in clear are now encrypted');
  }

  /** The stored JSON of a row (null when it cannot be opened with this key: the key changed). */
  private opened(stored: string): string | null {
    const plain = this.box.open(stored);
    if (plain === null)
      this.log.error('a session key cannot be opened with CONNECTION_TOKEN_KEY (was the key changed?); the session will pair again');
    return plain;
  }

  async read(connectionId: number, category: string, ids: string[]): Promise<Map<string, unknown>> {
    const found = new Map<string, unknown>();
    if (ids.length === 0) return found;
    for (const row of await this.rows.read(connectionId, category, ids)) {
      const json = this.opened(row.value);
      if (json !== null) found.set(row.id, JSON.parse(json, BufferJSON.reviver));
    }
    return found;
  }

  write(connectionId: number, items: StateWrite[]): Promise<void> {
    const prev = this.writes.get(connectionId) ?? Promise.resolve();
    const next = prev.catch(() => undefined).then(() => this.apply(connectionId, items));
    const tail = next.catch(() => undefined);
    this.writes.set(connectionId, tail);
    void tail.then(() => {
      if (this.writes.get(connectionId) === tail) this.writes.delete(connectionId);
    });
    return next;
  }

  private async apply(connectionId: number, items: StateWrite[]): Promise<void> {
    if (items.length === 0) return;
    const puts = items.filter((i) => i.value !== null && i.value !== undefined);
    const dels = items.filter((i) => i.value === null || i.value === undefined);
    await this.rows.apply(
      connectionId,
      puts.map((p) => ({ category: p.category, id: p.id, value: this.box.seal(JSON.stringify(p.value, BufferJSON.replacer)) })),
      dels.map((d) => ({ category: d.category, id: d.id })),
    );
  }

  /** Forgets the pairing: the next start shows a new QR code. */
  async clear(connectionId: number): Promise<void> {
    await (this.writes.get(connectionId) ?? Promise.resolve()).catch(() => undefined);
    await this.rows.clear(connectionId);
  }

  async hasCreds(connectionId: number): Promise<boolean> {
    return (await this.read(connectionId, CREDS, [''])).has('');
  }
}

/** A write refused because the session's lease is another replica's now (fencing). */
export class LeaseLostError extends Error {
  constructor(connectionId: number) {
    super(`connection ${connectionId}: the session's lease is another replica's; its credentials are not written here`);
    this.name = 'LeaseLostError';
  }
}

/**
 * Baileys' `useMultiFileAuthState`, with rows in PostgreSQL instead of files: the creds (fresh from
 * `initAuthCreds()` on first use) and a signal key store; `saveCreds` is wired to `creds.update`. `holdsLease`
 * (fencing): checked before every write; once it answers false nothing more is written (LeaseLostError), so a replica
 * that lost the session (paused, cut off) never overwrites what the new holder wrote.
 */
export async function usePostgresAuthState(
  store: AuthStateStore,
  connectionId: number,
  holdsLease: () => Promise<boolean> = async () => true,
): Promise<{ state: AuthenticationState; saveCreds: () => Promise<void>; clear: () => Promise<void> }> {
  const stored = (await store.read(connectionId, CREDS, [''])).get('') as AuthenticationCreds | undefined;
  const creds = stored ?? initAuthCreds();
  return {
    state: {
      creds,
      keys: {
        get: async <T extends keyof SignalDataTypeMap>(type: T, ids: string[]) => {
          const found = await store.read(connectionId, type, ids);
          const data: { [id: string]: SignalDataTypeMap[T] } = {};
          for (const id of ids) {
            let value = found.get(id);
            if (value === undefined) continue;
            if (type === 'app-state-sync-key' && value) value = proto.Message.AppStateSyncKeyData.fromObject(value as object);
            data[id] = value as SignalDataTypeMap[T];
          }
          return data;
        },
        set: async (data: SignalDataSet) => {
          const items: StateWrite[] = [];
          for (const category of Object.keys(data) as Array<keyof SignalDataSet>) {
            for (const [id, value] of Object.entries(data[category] ?? {})) items.push({ category, id, value: value ?? null });
          }
          if (!(await holdsLease())) throw new LeaseLostError(connectionId);
          await store.write(connectionId, items);
        },
        clear: () => store.clear(connectionId),
      },
    },
    saveCreds: async () => {
      if (!(await holdsLease())) throw new LeaseLostError(connectionId);
      await store.write(connectionId, [{ category: CREDS, id: '', value: creds }]);
    },
    clear: () => store.clear(connectionId),
  };
}
