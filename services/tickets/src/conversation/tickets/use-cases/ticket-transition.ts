import type { TicketStatus } from '@wa/contracts';
import { DomainError } from '@wa/server-kit';
import type { Caller } from '../../../identity/caller.service.js';

/** What a change reads of the ticket as it is. */
export interface TicketState {
  status: TicketStatus;
  userId: number | null;
  queueId: number | null;
  whatsappId: number;
  isGroup: boolean;
}

/** What PUT /tickets/{id} asks (spec 01 §4): any of these, absent when not asked. */
export interface TicketChange {
  status?: TicketStatus;
  userId?: number | null;
  queueId?: number | null;
  whatsappId?: number | null;
  useIntegration?: boolean;
  promptId?: number | null;
  integrationId?: number | null;
}

/** The columns a change writes. */
export interface TicketPatch {
  status?: TicketStatus;
  userId?: number | null;
  queueId?: number | null;
  whatsappId?: number;
  chatbot?: boolean;
  useIntegration?: boolean;
  promptId?: number | null;
  integrationId?: number | null;
  unreadMessages?: number;
}

/**
 * What the change sends the customer, each when the company's setting says so: the agent's greeting on accepting
 * (sendGreetingAccepted), the notice of a transfer (sendMsgTransfTicket), the farewell on closing (the rating
 * request with userRating, else the connection's completion text).
 */
export type TicketEffect = 'greeting' | 'transfer-notice' | 'farewell';

export type TicketChangeKind = 'accept' | 'reopen' | 'return' | 'resolve' | 'transfer' | 'edit';

export interface TicketTransition {
  kind: TicketChangeKind;
  /** empty: nothing changes (the ticket is answered as it is) */
  patch: TicketPatch;
  effects: TicketEffect[];
  /** rows the patch names that must exist in the caller's company (checked before it is written) */
  checks: { queueId?: number; whatsappId?: number };
}

const noPermission = () => new DomainError('ERR_NO_PERMISSION');

function assertHolderOrAdmin(caller: Pick<Caller, 'id' | 'isAdmin'>, row: TicketState, allowPending = false): void {
  if (caller.isAdmin || row.userId === caller.id) return;
  if (allowPending && row.status === 'pending') return;
  throw noPermission();
}

/**
 * The ticket's state machine (spec 01 §4), pure: from the ticket as it is, the change asked and who asks, the
 * columns to write and what goes to the customer, or ERR_NO_PERMISSION.
 * - accept (pending → open): the caller takes it, or hands a waiting ticket to another agent; the bot is done;
 * - reopen (closed → open): the caller takes it (an open one held by another only for admins);
 * - return (→ pending): back to the queue, no holder (its holder or an admin);
 * - resolve (→ closed): the bot, integration and prompt are off and nothing is unread (an open one: its holder or an admin);
 * - transfer: another agent (open), another queue or connection (its holder or an admin; a waiting ticket by anyone).
 */
export function ticketTransition(row: TicketState, change: TicketChange, caller: Pick<Caller, 'id' | 'isAdmin'>): TicketTransition {
  const patch: TicketPatch = {};
  const checks: TicketTransition['checks'] = {};
  let kind: TicketChangeKind = 'edit';
  let greet = false;
  const target = change.status ?? row.status;

  if (change.status && change.status !== row.status) {
    if (change.status === 'open') {
      // accept (pending → open) or reopen (closed → open): the caller takes it
      if (!caller.isAdmin && row.status === 'open' && row.userId !== caller.id) throw noPermission();
      kind = row.status === 'pending' ? 'accept' : 'reopen';
      patch.status = 'open';
      // someone took the conversation: the bot is done with it
      patch.chatbot = false;
      // a waiting ticket may be handed to another agent (the transfer dialog); otherwise the caller takes it
      patch.userId = change.userId && (caller.isAdmin || row.status === 'pending') ? change.userId : caller.id;
      greet = row.status === 'pending' && !row.isGroup && patch.userId === caller.id;
    } else if (change.status === 'pending') {
      // return: back to the queue, no owner
      assertHolderOrAdmin(caller, row);
      kind = 'return';
      patch.status = 'pending';
      patch.userId = null;
    } else {
      if (row.status === 'open') assertHolderOrAdmin(caller, row);
      kind = 'resolve';
      patch.status = 'closed';
      patch.chatbot = false;
      patch.useIntegration = false;
      patch.promptId = null;
      patch.unreadMessages = 0;
      if (change.userId !== undefined || row.userId === null) patch.userId = change.userId ?? caller.id;
    }
  } else if (change.userId !== undefined && target === 'open' && change.userId !== row.userId) {
    // transfer to another agent
    assertHolderOrAdmin(caller, row);
    kind = 'transfer';
    patch.userId = change.userId;
  }
  if (change.queueId !== undefined && change.queueId !== row.queueId) {
    assertHolderOrAdmin(caller, row, true);
    if (change.queueId !== null) checks.queueId = change.queueId;
    if (kind === 'edit') kind = 'transfer';
    patch.queueId = change.queueId;
  }
  if (change.whatsappId !== undefined && change.whatsappId !== null && change.whatsappId !== row.whatsappId) {
    assertHolderOrAdmin(caller, row, true);
    checks.whatsappId = change.whatsappId;
    if (kind === 'edit') kind = 'transfer';
    patch.whatsappId = change.whatsappId;
  }
  if (change.useIntegration !== undefined) patch.useIntegration = change.useIntegration;
  if (change.promptId !== undefined) patch.promptId = change.promptId;
  if (change.integrationId !== undefined) patch.integrationId = change.integrationId;

  const effects: TicketEffect[] = [];
  if (greet) effects.push('greeting');
  // a transfer moves a ticket between queues or agents without accepting, returning, resolving or reopening it
  // (or hands it to another queue's waiting list)
  const handedOver = patch.status === 'open' && row.status === 'pending' && patch.userId !== caller.id;
  const transferred =
    !row.isGroup &&
    (patch.status === undefined
      ? patch.queueId !== undefined || patch.userId !== undefined
      : (patch.status === 'pending' || handedOver) && patch.queueId !== undefined);
  if (transferred) effects.push('transfer-notice');
  if (patch.status === 'closed' && row.status !== 'closed' && !row.isGroup) effects.push('farewell');
  return { kind, patch, effects, checks };
}
