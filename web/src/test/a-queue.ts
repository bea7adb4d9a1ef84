import type { QueueDto } from '@wa/contracts';

/** A queue as the server answers it, for the tests. */
export function aQueue(id: number, name: string, orderQueue: number | null, extra: Partial<QueueDto> = {}): QueueDto {
  return {
    id,
    companyId: 1,
    name,
    color: '#2e7d32',
    greetingMessage: '',
    outOfHoursMessage: '',
    orderQueue,
    mediaPath: null,
    mediaName: null,
    schedules: [],
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    ...extra,
  };
}
