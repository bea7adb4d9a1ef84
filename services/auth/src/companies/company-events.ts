import { Subjects, type CompanyBillingCopy, type CompanyCreatedEvent, type CompanyUpdatedEvent } from '@wa/contracts';
import { randomBytes } from 'node:crypto';
import type { CompanyEntity } from '../database/entities/index.js';
import type { OutgoingEvent } from '../outbox/outbox.service.js';

/** What other services keep of a company (tickets: its standing; billing: its plan, due date, recurrence, email). */
function keptOf(c: CompanyEntity) {
  return { planId: c.planId, status: c.status, dueDate: c.dueDate, email: c.email, recurrence: c.recurrence };
}

/** `company.created.<id>`: a new company, with what billing keeps of it. */
export function companyCreated(c: CompanyEntity, at: string): OutgoingEvent {
  const payload: CompanyCreatedEvent = { companyId: c.id, name: c.name, at, ...keptOf(c) };
  return { subject: Subjects.companyCreated(c.id), msgId: `company-created:${c.id}`, payload };
}

/**
 * `company.updated.<id>`: the company as it is now (name, plan, status, due date, billing email, recurrence).
 * `tag` names the change when it has a name of its own (a renewal: its invoice), so a retry is one message.
 */
export function companyUpdated(c: CompanyEntity, tag?: string): OutgoingEvent {
  const payload: CompanyUpdatedEvent = { companyId: c.id, name: c.name, at: new Date().toISOString(), ...keptOf(c) };
  return {
    subject: Subjects.companyUpdated(c.id),
    msgId: `company-updated:${c.id}:${tag ?? `${Date.now()}:${randomBytes(3).toString('hex')}`}`,
    payload,
  };
}

/** What billing keeps of a company (`GET /internal/companies/billing`): as the events above tell it. */
export function companyBillingCopy(c: CompanyEntity): CompanyBillingCopy {
  return {
    companyId: c.id,
    name: c.name,
    email: c.email,
    planId: c.planId,
    status: c.status,
    dueDate: c.dueDate,
    recurrence: c.recurrence,
    at: c.updatedAt.toISOString(),
  };
}
