import { checkMediaFile, DomainError, isMediaKey, newMediaKey, readUploaded, type CheckedMedia, type MediaStorage, type UploadedDiskFile } from '@wa/server-kit';
import type { EntityManager } from 'typeorm';

/** The stored files of some tickets' messages (read before the tickets are deleted). */
export async function storedFilesOf(tx: EntityManager, companyId: number, ticketIds: number[]): Promise<string[]> {
  if (ticketIds.length === 0) return [];
  const rows: Array<{ mediaUrl: string }> = await tx.query(
    `SELECT "mediaUrl" FROM tickets.messages WHERE "companyId" = $1 AND "ticketId" = ANY($2::int[]) AND "mediaUrl" IS NOT NULL`,
    [companyId, ticketIds],
  );
  return rows.map((r) => r.mediaUrl).filter(isMediaKey);
}

/** The files of a contact's scheduled messages not sent yet (a sent one's file is its message's now). */
export async function scheduleFilesOf(tx: EntityManager, companyId: number, contactId: number): Promise<string[]> {
  const rows: Array<{ mediaPath: string }> = await tx.query(
    `SELECT "mediaPath" FROM tickets.schedules WHERE "companyId" = $1 AND "contactId" = $2 AND "sentAt" IS NULL AND "mediaPath" IS NOT NULL`,
    [companyId, contactId],
  );
  return rows.map((r) => r.mediaPath).filter(isMediaKey);
}

/**
 * Removes files once what pointed at them is gone (after the commit: a rollback keeps them). Best effort:
 * a file that cannot be removed now is unreachable anyway (no message names it).
 */
export async function dropFiles(storage: MediaStorage, keys: string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 20) {
    await Promise.all(keys.slice(i, i + 20).map((k) => storage.delete(k).catch(() => undefined)));
  }
}

/**
 * A file uploaded for a row (`POST …/media-upload`, multipart `file`): checked by its bytes (and by `accept`,
 * which answers a refusal text or null), stored, then saved on the row by `save`. The row's `previous` file is
 * dropped once the new one is saved; the new one is dropped when saving fails.
 */
export async function attachFile<T>(
  storage: MediaStorage,
  companyId: number,
  file: UploadedDiskFile | undefined,
  previous: string | null,
  save: (key: string, checked: CheckedMedia) => Promise<T>,
  accept: (checked: CheckedMedia) => string | null = () => null,
): Promise<T> {
  if (!file) throw fileRefused('Obrigatório');
  const checked = await checkMediaFile(file, 'file');
  const refusal = accept(checked);
  if (refusal) throw fileRefused(refusal);
  const key = newMediaKey(companyId, checked.fileName);
  await storage.put(key, readUploaded(file));
  let saved: T;
  try {
    saved = await save(key, checked);
  } catch (err) {
    await storage.delete(key).catch(() => undefined);
    throw err;
  }
  if (previous) await dropFiles(storage, [previous].filter(isMediaKey));
  return saved;
}

const fileRefused = (text: string) => new DomainError('ERR_VALIDATION', { details: [{ field: 'file', messages: [text] }] }, `file: ${text}`);
