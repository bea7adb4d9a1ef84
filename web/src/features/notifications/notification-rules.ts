import type { AppMessageChannelPayload, MessageDto, TicketDto } from '@wa/contracts';
import type { TicketListArgs } from '../tickets/ticket-list-rules';

/**
 * The top bar's notifications (spec 01 §2 "Top bar"): the pending tickets the user can see, all queues
 * (the server applies who sees what, allTicket included); the first page, kept live like every ticket list.
 */
export const PENDING_NOTIFICATIONS_ARGS: TicketListArgs = { status: 'pending', showAll: false, queueIds: [] };

/** The badge: nothing for none, "99+" past 99, "N+" when the server has more than the page it gave. */
export function countLabel(count: number, hasMore = false): string | null {
  if (count <= 0) return null;
  if (count > 99) return '99+';
  return hasMore ? `${count}+` : String(count);
}

/** Where a ticket opens, as the app opens it (the chat route takes the uuid, or the id). */
export function ticketPath(ticket: Pick<TicketDto, 'id' | 'uuid'>): string {
  return `/tickets/${ticket.uuid || ticket.id}`;
}

/** Whether the chat on screen (the `/tickets/:ticketId` parameter) is this ticket's. */
export function isOpenTicket(ticket: Pick<TicketDto, 'id' | 'uuid'>, openTicketParam: string | null | undefined): boolean {
  if (!openTicketParam) return false;
  return openTicketParam === ticket.uuid || openTicketParam === String(ticket.id);
}

export interface NotifyContext {
  userId: number;
  /** the `/tickets/:ticketId` parameter of the page, when a chat is open */
  openTicket?: string | null;
  /** `document.visibilityState === 'hidden'` */
  pageHidden: boolean;
}

/**
 * A desktop notification and the sound for an `appMessage` event: a new customer message (`create`, not
 * from us) on a ticket the user sees (the socket only brings those) that is nobody's or the user's own (a
 * colleague's conversation is theirs to hear), while the page is hidden or another chat is open.
 */
export function shouldNotify(p: Pick<AppMessageChannelPayload, 'action' | 'message' | 'ticket'>, ctx: NotifyContext): boolean {
  if (p.action !== 'create' || !p.message || p.message.fromMe || p.message.isDeleted || !p.ticket) return false;
  if (p.ticket.userId !== null && p.ticket.userId !== undefined && p.ticket.userId !== ctx.userId) return false;
  return ctx.pageHidden || !isOpenTicket(p.ticket, ctx.openTicket);
}

/** spec: a notification's body is the message cut to this many characters. */
export const NOTIFICATION_BODY_CHARS = 100;

type Translate = (key: string) => string;

/** The notification's title: the contact's name (its number when it has none). */
export function notificationTitle(p: Pick<AppMessageChannelPayload, 'contact' | 'ticket'>): string {
  const contact = p.contact ?? p.ticket?.contact;
  return contact?.name?.trim() || contact?.number || '';
}

/** The message text on one line, cut; a message without text says what it carries. */
export function notificationBody(message: Pick<MessageDto, 'body' | 'mediaType'>, t: Translate, max = NOTIFICATION_BODY_CHARS): string {
  const flat = (message.body ?? '')
    .replace(/\*([^*\n]+)\*/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
  if (!flat) return message.mediaType && message.mediaType !== 'chat' ? t('notifications.media') : t('notifications.newMessage');
  const chars = Array.from(flat);
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : flat;
}

/** The same ticket's notifications replace one another. */
export const notificationTag = (ticket: Pick<TicketDto, 'id'>): string => `ticket-${ticket.id}`;

/** spec 01 §9: the volume is 0 to 1 in steps of 0.1 (anything else is brought into range; unreadable is full). */
export function clampVolume(value: unknown): number {
  const v = typeof value === 'string' && value.trim() === '' ? NaN : Number(value);
  if (!Number.isFinite(v)) return 1;
  return Math.min(1, Math.max(0, Math.round(v * 10) / 10));
}

export interface ChimeNote {
  /** Hz */
  frequency: number;
  /** seconds after the chime starts */
  start: number;
  /** seconds */
  duration: number;
}

/** A short two-tone chime (E6 then A6), made with the Web Audio API: no audio file to fetch. */
export const CHIME_NOTES: readonly ChimeNote[] = [
  { frequency: 1318.51, start: 0, duration: 0.18 },
  { frequency: 1760, start: 0.14, duration: 0.32 },
];

/** The chime's loudest level at a volume; the oscillators peak lower than full scale. */
export const CHIME_PEAK = 0.4;

/** The gain of the chime at the slider's volume: 0 (silent, nothing is played) to CHIME_PEAK. */
export function chimeGain(volume: unknown): number {
  return Math.round(clampVolume(volume) * CHIME_PEAK * 1000) / 1000;
}

/** How long the chime lasts, in seconds. */
export const chimeLength = (notes: readonly ChimeNote[] = CHIME_NOTES): number => Math.max(...notes.map((n) => n.start + n.duration));
