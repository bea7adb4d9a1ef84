import type { SessionEndReason, WhatsappSessionChannelPayload } from '@wa/contracts';
import { useSyncExternalStore } from 'react';

/** Why WhatsApp ended a connection's session, as its DISCONNECTED event said, and that event's time (a repeat has the same). */
export interface SessionEnd {
  reason: SessionEndReason;
  at: string;
}

/** The text of each reason (connections.sessionEnd.*). */
export const SESSION_END_TEXT: Record<SessionEndReason, string> = {
  banned: 'connections.sessionEnd.banned',
  logged_out: 'connections.sessionEnd.logged_out',
  replaced: 'connections.sessionEnd.replaced',
};

const REASONS = new Set<string>(Object.keys(SESSION_END_TEXT));

/**
 * What a session event leaves of the connection's end: a DISCONNECTED with a reason records it; reconnecting
 * (CONNECTED) or a DISCONNECTED without one (an admin's disconnect) forgets it; the steps between (OPENING, qrcode,
 * PAIRING, TIMEOUT) keep it, the reason still holds until the session is back.
 */
export function nextSessionEnd(current: SessionEnd | undefined, p: WhatsappSessionChannelPayload): SessionEnd | undefined {
  const { status, updatedAt } = p.session;
  if (status === 'CONNECTED') return undefined;
  if (status !== 'DISCONNECTED') return current;
  return p.reason && REASONS.has(p.reason) ? { reason: p.reason, at: updatedAt } : undefined;
}

/** The ends heard of since the page loaded, by connection id (WhatsappDto does not keep them): replaced whole on each change. */
let ends: ReadonlyMap<number, SessionEnd> = new Map();
const listeners = new Set<() => void>();

function publish(next: Map<number, SessionEnd>): void {
  ends = next;
  for (const l of listeners) l();
}

/**
 * Records what the event says of the connection's end. Answers the end when it is news (a repeat of the same
 * event, delivered twice, is not), so the admins are told once.
 */
export function noteSessionEvent(p: WhatsappSessionChannelPayload): SessionEnd | null {
  const id = p.session.id;
  const current = ends.get(id);
  const next = nextSessionEnd(current, p);
  if (next === current || (next && current && next.reason === current.reason && next.at === current.at)) return null;
  const map = new Map(ends);
  if (next) map.set(id, next);
  else map.delete(id);
  publish(map);
  return next ?? null;
}

/** A deleted connection leaves nothing behind. */
export function forgetSessionEnd(connectionId: number): void {
  if (!ends.has(connectionId)) return;
  const map = new Map(ends);
  map.delete(connectionId);
  publish(map);
}

function subscribe(l: () => void) {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** Every connection's end as last heard of (by connection id). */
export function useSessionEnds(): ReadonlyMap<number, SessionEnd> {
  return useSyncExternalStore(subscribe, () => ends);
}
