/** What the bot hands an outside flow: the message and who wrote it. */
export interface FlowMessage {
  companyId: number;
  ticketId: number;
  queueId: number;
  messageId: number;
  body: string;
  contact: { id: number; name: string; number: string };
}

/**
 * What a queue's agent (an AI prompt, an outside flow) answers: texts to send (`delayMs` apart; a Typebot
 * session to keep), nothing to say, or the hand-over to the queue's agents (failure, timeout, transfer, finish).
 */
export type AgentAnswer =
  | { kind: 'reply'; texts: string[]; delayMs?: number; typebot?: { sessionId: string; at: string } | null; handOver?: boolean }
  | { kind: 'hand-over'; reason: string };
