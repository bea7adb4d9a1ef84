import { VisuallyHidden } from '@chakra-ui/react';
import { SocketChannels, type AppMessageChannelPayload, type MessageDto } from '@wa/contracts';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { selectUser } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { useSocketEvent } from '../../realtime/RealtimeProvider';

/** How much of a message is read out: enough to tell what it is about. */
export const ANNOUNCED_CHARS = 80;

/** A message's text on one line, WhatsApp's *bold* markers out, cut to ANNOUNCED_CHARS characters. */
function shortText(text: string | null | undefined): string {
  const flat = (text ?? '')
    .replace(/\*([^*\n]+)\*/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
  const chars = Array.from(flat);
  return chars.length > ANNOUNCED_CHARS ? `${chars.slice(0, ANNOUNCED_CHARS).join('')}...` : flat;
}

/**
 * What the screen reader is told of a message that just arrived in the open chat, or null when it says nothing:
 * only a customer's new message (not the agent's own, not an edit or an ack, not another ticket's).
 */
export function announcementOf(p: AppMessageChannelPayload, ticketId: number, contactName: string, t: TFunction): string | null {
  const m: MessageDto = p.message;
  if (p.action !== 'create' || m.ticketId !== ticketId || m.fromMe) return null;
  const name = m.contact?.name || p.contact?.name || contactName || p.contact?.number || '';
  const text = shortText(m.body) || t('a11y.attachment');
  return t('a11y.newMessage', { name, text });
}

/**
 * The open chat's polite live region (issue 45 §7): a visually hidden element whose text becomes "Nova mensagem
 * de Maria: Olá…" when a customer's message arrives while the chat is open, so a screen reader reads it out
 * without moving the focus. The messages a page load brings (history) never pass through it: only the socket's
 * new ones do.
 */
export function NewMessageAnnouncer({ ticketId, contactName }: { ticketId: number; contactName: string }) {
  const { t } = useTranslation();
  const user = useAppSelector(selectUser);
  const [said, setSaid] = useState({ text: '', n: 0 });
  useSocketEvent<AppMessageChannelPayload>(user ? SocketChannels.appMessage(user.companyId) : null, (p) => {
    const text = announcementOf(p, ticketId, contactName, t);
    // the count keys the text, so the same words twice in a row are still a change the reader announces
    if (text) setSaid((s) => ({ text, n: s.n + 1 }));
  });
  return (
    <VisuallyHidden aria-live="polite" aria-atomic="true" data-testid="chat-announcer">
      {said.text && <span key={said.n}>{said.text}</span>}
    </VisuallyHidden>
  );
}
