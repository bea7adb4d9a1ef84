import { isMediaKey } from '@wa/server-kit';
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
