/** One emit of the fan-out: `io.to(rooms).except(except).emit(channel, payload)`, through the adapter. */
export interface Emission {
  rooms: string[];
  /** sockets in any of these rooms are left out (they get another event of the same change) */
  except?: string[];
  channel: string;
  payload: unknown;
  /** disconnect the sockets of `rooms` this long after the emit */
  disconnectAfterMs?: number;
}

export const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;

/** `null` for an absent or non-id value (a ticket without queue or owner). */
export const optionalId = (v: unknown): number | null => (isId(v) ? v : null);

/** The company segment of a subject, when it is a number. */
export function subjectCompany(subject: string, index: number): number | null {
  const part = subject.split('.')[index];
  return part && /^\d+$/.test(part) ? Number(part) : null;
}

/** The payload's company, when it is an id and agrees with the subject's. */
export function eventCompany(subject: string, index: number, data: unknown): number | null {
  const companyId = (data as { companyId?: unknown } | null | undefined)?.companyId;
  if (!isId(companyId)) return null;
  const fromSubject = subjectCompany(subject, index);
  return fromSubject === null || fromSubject === companyId ? companyId : null;
}
