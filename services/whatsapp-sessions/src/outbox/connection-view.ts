import type { WhatsappDto } from '@wa/contracts';
import type { ConnectionEntity } from '../database/entities/connection.entity.js';

/**
 * A connection row (entity or raw `RETURNING *` row: same columns) as the API shows it. The stored token is
 * sealed: `token` is the one in clear (ConnectionTokens.open), for admins' HTTP answers only; events omit it.
 */
export function connectionView(row: ConnectionEntity, token: string | null = null): WhatsappDto {
  const queueIds = (row.queueIds ?? []).map(Number);
  return {
    id: row.id,
    companyId: row.companyId,
    name: row.name,
    status: row.status,
    qrcode: row.qrcode,
    retries: row.retries,
    isDefault: row.isDefault,
    token,
    greetingMessage: row.greetingMessage,
    complationMessage: row.complationMessage,
    outOfHoursMessage: row.outOfHoursMessage,
    ratingMessage: row.ratingMessage,
    expiresInactiveMessage: row.expiresInactiveMessage,
    expiresTicket: row.expiresTicket,
    timeToTransfer: row.timeToTransfer,
    transferQueueId: row.transferQueueId,
    timeUseBotQueues: row.timeUseBotQueues,
    maxUseBotQueues: row.maxUseBotQueues,
    provider: row.provider,
    channel: row.channel,
    promptId: row.promptId,
    number: row.number,
    queues: queueIds.map((id) => ({ id })),
    queueIds,
    // rows read before the migration ran carry none
    campaignDailyLimit: row.campaignDailyLimit ?? 0,
    campaignWarmup: row.campaignWarmup ?? false,
    campaignHours: row.campaignHours ?? '',
    endReason: row.endReason ?? null,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}
