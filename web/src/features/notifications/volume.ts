import { readItem, StorageKeys } from '../../app/storage';

/** spec 01 §9: volume 0 to 1 in steps of 0.1, stored locally. */
export function storedVolume(): number {
  const v = Number(readItem(StorageKeys.volume) ?? '1');
  return Number.isFinite(v) ? Math.min(1, Math.max(0, Math.round(v * 10) / 10)) : 1;
}
