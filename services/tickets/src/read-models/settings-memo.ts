import { Injectable } from '@nestjs/common';
import { ReadModels } from './read-models.repository.js';

/**
 * How long a setting read here is reused. The process that applies a setting's event forgets it at once (the next
 * message sees the new value); another replica's copy of it catches up within this.
 */
export const SETTING_MEMO_TTL_MS = 5_000;
/** Past this many remembered values, the expired ones are dropped. */
const MEMO_SIZE = 10_000;

/**
 * Company settings the hot paths ask at every batch (the inbound path: CheckMsgIsGroup), read from tickets' copy
 * (ReadModels) and remembered per company and key, so a busy company costs one lookup every SETTING_MEMO_TTL_MS
 * at most, not one per batch. SettingsConsumer forgets a value when its event is applied; a read that was under
 * way then does not put the old value back (`changes`).
 */
@Injectable()
export class SettingsMemo {
  private readonly memo = new Map<string, { until: number; value: string | undefined }>();
  /** bumped at every forget: a read that began before it keeps nothing */
  private changes = 0;

  constructor(private readonly readModels: ReadModels) {}

  /** `key`'s value for each of `companyIds` (undefined: the company has none), from memory when fresh. */
  async valuesOf(companyIds: Iterable<number>, key: string): Promise<Map<number, string | undefined>> {
    const now = Date.now();
    const values = new Map<number, string | undefined>();
    const missing: number[] = [];
    for (const companyId of new Set(companyIds)) {
      const hit = this.memo.get(`${companyId}|${key}`);
      if (hit && hit.until > now) values.set(companyId, hit.value);
      else missing.push(companyId);
    }
    if (missing.length === 0) return values;
    const before = this.changes;
    const read = await this.readModels.settingOfCompanies(missing, key);
    const keep = this.changes === before;
    const until = Date.now() + SETTING_MEMO_TTL_MS;
    for (const companyId of missing) {
      const value = read.get(companyId);
      values.set(companyId, value);
      if (keep) this.memo.set(`${companyId}|${key}`, { until, value });
    }
    if (this.memo.size > MEMO_SIZE) for (const [k, v] of this.memo) if (v.until <= Date.now()) this.memo.delete(k);
    return values;
  }

  /** The company's `key` changed (its event was applied to the copy): the next read asks the copy. */
  forget(companyId: number, key: string): void {
    this.changes++;
    this.memo.delete(`${companyId}|${key}`);
  }
}
