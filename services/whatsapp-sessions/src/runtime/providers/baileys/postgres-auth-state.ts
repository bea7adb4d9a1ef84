import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  BufferJSON,
  initAuthCreds,
  proto,
  type AuthenticationCreds,
  type AuthenticationState,
  type SignalDataSet,
  type SignalDataTypeMap,
} from '@whiskeysockets/baileys';
import { DataSource } from 'typeorm';
import { rowsOf } from '../../../database/sql.js';

const CREDS = 'creds';

export interface StateWrite {
  category: string;
  id: string;
  /** null deletes */
  value: unknown;
}

/**
 * Rows of `whatsapp.session_state`: Baileys' creds (category `creds`) and signal keys (category = key
 * type, id = key id), each as JSON written with Baileys' BufferJSON (buffers as base64), never on disk.
 * Writes of one connection are applied in order, each batch in one transaction.
 */
@Injectable()
export class AuthStateStore {
  private readonly writes = new Map<number, Promise<void>>();

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async read(connectionId: number, category: string, ids: string[]): Promise<Map<string, unknown>> {
    const found = new Map<string, unknown>();
    if (ids.length === 0) return found;
    const raw = await this.db.query(
      `SELECT id, value FROM whatsapp.session_state WHERE "connectionId" = $1 AND category = $2 AND id = ANY($3::text[])`,
      [connectionId, category, ids],
    );
    for (const row of rowsOf<{ id: string; value: string }>(raw)) found.set(row.id, JSON.parse(row.value, BufferJSON.reviver));
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
    await this.db.transaction(async (tx) => {
      if (puts.length > 0) {
        await tx.query(
          `INSERT INTO whatsapp.session_state ("connectionId", category, id, value)
           SELECT $1, c, i, v FROM unnest($2::text[], $3::text[], $4::text[]) AS t(c, i, v)
           ON CONFLICT ("connectionId", category, id) DO UPDATE SET value = EXCLUDED.value, "updatedAt" = now()`,
          [connectionId, puts.map((p) => p.category), puts.map((p) => p.id), puts.map((p) => JSON.stringify(p.value, BufferJSON.replacer))],
        );
      }
      if (dels.length > 0) {
        await tx.query(
          `DELETE FROM whatsapp.session_state s USING unnest($2::text[], $3::text[]) AS t(c, i)
            WHERE s."connectionId" = $1 AND s.category = t.c AND s.id = t.i`,
          [connectionId, dels.map((d) => d.category), dels.map((d) => d.id)],
        );
      }
    });
  }

  /** Forgets the pairing: the next start shows a new QR code. */
  async clear(connectionId: number): Promise<void> {
    await (this.writes.get(connectionId) ?? Promise.resolve()).catch(() => undefined);
    await this.db.query(`DELETE FROM whatsapp.session_state WHERE "connectionId" = $1`, [connectionId]);
  }

  async hasCreds(connectionId: number): Promise<boolean> {
    return (await this.read(connectionId, CREDS, [''])).has('');
  }
}

/**
 * Baileys' `useMultiFileAuthState`, with rows in PostgreSQL instead of files: the creds (fresh from
 * `initAuthCreds()` on first use) and a signal key store; `saveCreds` is wired to `creds.update`.
 */
export async function usePostgresAuthState(
  store: AuthStateStore,
  connectionId: number,
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
          await store.write(connectionId, items);
        },
        clear: () => store.clear(connectionId),
      },
    },
    saveCreds: () => store.write(connectionId, [{ category: CREDS, id: '', value: creds }]),
    clear: () => store.clear(connectionId),
  };
}
