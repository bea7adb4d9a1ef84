import type { MessageDto, MessagesPage } from '@wa/contracts';

export interface MessagePageParam {
  cursor: string | null;
  page: number;
}

/** The cached pages of one ticket's messages: page 0 is the newest, each page oldest first. */
export interface MessagePages {
  pages: MessagesPage[];
  pageParams: MessagePageParam[];
}

/** Oldest first, each message once. */
export function orderedMessages(data: MessagePages | undefined): MessageDto[] {
  if (!data) return [];
  const seen = new Set<number>();
  const out: MessageDto[] = [];
  for (let i = data.pages.length - 1; i >= 0; i--) {
    for (const m of data.pages[i].messages) {
      if (seen.has(m.id)) continue;
      seen.add(m.id);
      out.push(m);
    }
  }
  return out;
}

/** A message created (the socket's `create`, or the answer of a send): appended to the newest page once. */
export function addMessage(data: MessagePages, message: MessageDto): MessagePages {
  if (data.pages.some((p) => p.messages.some((m) => m.id === message.id))) return replaceMessage(data, message);
  if (data.pages.length === 0)
    return { pages: [{ messages: [message], hasMore: false, nextCursor: null }], pageParams: [{ cursor: null, page: 1 }] };
  const [newest, ...older] = data.pages;
  return { ...data, pages: [{ ...newest, messages: [...newest.messages, message] }, ...older] };
}

/** A message changed (ack, edit, delete): replaced where it is. A lower ack never replaces a higher one. */
export function replaceMessage(data: MessagePages, message: MessageDto): MessagePages {
  return {
    ...data,
    pages: data.pages.map((p) => ({
      ...p,
      messages: p.messages.map((m) => (m.id === message.id ? { ...m, ...message, ack: Math.max(m.ack, message.ack) } : m)),
    })),
  };
}

/** DD/MM/YYYY of a moment, in local time (spec 01 §9). */
export function dayLabel(iso: string): string {
  const d = new Date(iso);
  const dd = String(d.getDate()).padStart(2, '0');
  const mm = String(d.getMonth() + 1).padStart(2, '0');
  return `${dd}/${mm}/${d.getFullYear()}`;
}

export function timeLabel(iso: string): string {
  const d = new Date(iso);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

/** The text sent: with the sign option on, the agent's name in bold first (`*Name:*\n…`). */
export function outgoingBody(text: string, sign: boolean, agentName: string | undefined): string {
  const body = text.trim();
  return sign && agentName ? `*${agentName}:*\n${body}` : body;
}

/** Whitespace-only text is not sent (spec 01 §5). */
export function isSendable(text: string): boolean {
  return text.trim().length > 0;
}

/** spec 01 §9: a quick reply's label in the input is cut at 35 characters. */
export const QUICK_REPLY_LABEL_MAX = 35;

/** The quick replies offered for what is typed: after "/" and at least one more character, by shortcode or text. */
export function quickReplyMatches<T extends { shortcode: string; message: string }>(text: string, replies: readonly T[]): T[] {
  if (!text.startsWith('/') || text.length < 2) return [];
  const term = text.slice(1).toLowerCase();
  return replies.filter((r) => r.shortcode.toLowerCase().includes(term) || r.message.toLowerCase().includes(term));
}

/** `shortcode - message`, cut at 35 characters. */
export function quickReplyLabel(r: { shortcode: string; message: string }): string {
  const label = `${r.shortcode} - ${r.message.replace(/\s+/g, ' ')}`;
  return label.length > QUICK_REPLY_LABEL_MAX ? `${label.slice(0, QUICK_REPLY_LABEL_MAX)}...` : label;
}
