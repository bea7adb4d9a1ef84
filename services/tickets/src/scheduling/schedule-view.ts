import { TicketSubjects, type ScheduleDeletedEvent, type ScheduleDto, type ScheduleUpdatedEvent } from '@wa/contracts';
import type { OutgoingEvent } from '../outbox/outbox.service.js';
import type { ScheduleEntity } from '../database/entities/index.js';
import { mediaUrlOf } from '../conversation/core/ticket-view.js';

export type ScheduleRow = ScheduleEntity & { contactName?: string | null; contactNumber?: string | null };

export const scheduleView = (s: ScheduleRow): ScheduleDto => ({
  id: s.id,
  body: s.body,
  contactId: s.contactId,
  contact: s.contactName != null ? { id: s.contactId, name: s.contactName, number: s.contactNumber ?? '' } : null,
  sendAt: s.sendAt.toISOString(),
  sentAt: s.sentAt ? s.sentAt.toISOString() : null,
  status: s.status,
  reason: s.reason,
  ticketId: s.ticketId,
  mediaPath: mediaUrlOf(s.mediaPath),
  mediaName: s.mediaName,
  userId: s.userId,
  companyId: s.companyId,
  createdAt: s.createdAt.toISOString(),
  updatedAt: s.updatedAt.toISOString(),
});

/** `schedule.updated`: its msg id changes with every change (and repeats with a replay). */
export function scheduleUpdatedEvent(s: ScheduleRow): OutgoingEvent {
  const schedule = scheduleView(s);
  const payload: ScheduleUpdatedEvent = { companyId: s.companyId, schedule };
  return {
    subject: TicketSubjects.scheduleUpdated(s.companyId, s.id),
    msgId: `schedule-updated:${s.id}:${schedule.updatedAt}:${s.status}`,
    payload,
  };
}

export function scheduleDeletedEvent(s: ScheduleEntity): OutgoingEvent {
  const payload: ScheduleDeletedEvent = { companyId: s.companyId, scheduleId: s.id, userId: s.userId };
  return { subject: TicketSubjects.scheduleDeleted(s.companyId, s.id), msgId: `schedule-deleted:${s.id}`, payload };
}
