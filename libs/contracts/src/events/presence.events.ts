/**
 * Presence (issue 45 §5): "digitando…" / "gravando…" both ways. Presence is what a person is doing right now, worth
 * nothing a few seconds later: it travels on core NATS (no stream keeps it, no outbox writes it), under `presence.>`,
 * which no stream's subjects take. A presence lost on the way is only a chat header that does not say "digitando…".
 */

/** What a customer or an agent is doing in a chat: typing, recording a voice note, or neither any more. */
export const CHAT_PRESENCES = ['composing', 'recording', 'paused'] as const;
export type ChatPresence = (typeof CHAT_PRESENCES)[number];
export const isChatPresence = (value: unknown): value is ChatPresence =>
  typeof value === 'string' && (CHAT_PRESENCES as readonly string[]).includes(value);

/** A customer's presence in a chat with a connection's phone, as its session heard it (whatsapp-sessions → tickets). */
export interface WaPresence {
  companyId: number;
  connectionId: number;
  /** the customer's number (digits), or `<lid>@lid` when WhatsApp names them only by a LID not yet mapped */
  from: string;
  state: ChatPresence;
  at: number;
}

/** A customer's presence on one ticket (tickets → realtime-gateway → the ticket's chat box). */
export interface TicketPresence {
  companyId: number;
  ticketId: number;
  state: ChatPresence;
  at: number;
}

/** The `sendPresence` session command (tickets → the session's holder): the agent is typing or recording in a chat. */
export interface PresenceCommand {
  action: 'sendPresence';
  /** the customer's number (digits), a LID (`<lid>@lid`) or a group id (`<id>@g.us`) */
  to: string;
  state: ChatPresence;
}

export const PresenceSubjects = {
  /** core NATS: a customer's presence heard by a connection's session */
  wa: (companyId: number, connectionId: number) => `presence.wa.${companyId}.${connectionId}`,
  allWa: 'presence.wa.>',
  /** core NATS: a customer's presence on a ticket, for the ticket's chat box */
  ticket: (companyId: number) => `presence.ticket.${companyId}`,
  allTicket: 'presence.ticket.>',
} as const;

/** POST /whatsappsession/:id/sandbox/presence (stand-in phones only): a customer types or records, or stops. */
export interface SandboxPresenceRequest {
  /** the customer: their number (8 to 20 digits), or a LID as `<digits>@lid` */
  from: string;
  state: ChatPresence;
}

/** GET /whatsappsession/:id/sandbox/presence: what the sandbox phone told chats of its user's presence, oldest first. */
export interface SandboxPresencesResponse {
  presences: Array<{ to: string; state: ChatPresence; at: number }>;
}

/** POST /tickets/:ticketId/presence: the agent types or records in the ticket's chat, or stops. */
export interface TicketPresenceRequest {
  state: ChatPresence;
}
