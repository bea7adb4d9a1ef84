import type { WhatsappDto } from '@wa/contracts';

/**
 * A whole connection record as whatsapp-sessions publishes it (every field set): tests that announce a
 * connection on the shared stream must not publish a partial one, which other services' consumers refuse.
 */
export function connectionRecord(companyId: number, id: number, fields: Partial<WhatsappDto> = {}): WhatsappDto {
  const now = new Date().toISOString();
  return {
    id,
    companyId,
    name: `Connection ${id}`,
    status: 'DISCONNECTED',
    qrcode: '',
    retries: 0,
    isDefault: true,
    token: null,
    greetingMessage: '',
    complationMessage: '',
    outOfHoursMessage: '',
    ratingMessage: '',
    expiresInactiveMessage: '',
    expiresTicket: 0,
    timeToTransfer: 0,
    transferQueueId: null,
    timeUseBotQueues: 0,
    maxUseBotQueues: 0,
    provider: 'beta',
    channel: 'sandbox',
    promptId: null,
    number: null,
    queues: [],
    queueIds: [],
    campaignDailyLimit: 0,
    campaignWarmup: false,
    campaignHours: '',
    updatedAt: now,
    createdAt: now,
    ...fields,
  };
}
