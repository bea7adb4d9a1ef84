import { WAITING_MESSAGE_PREVIEW, type MessageDto, type TicketDto } from '@wa/contracts';
import { useTranslation } from 'react-i18next';
import { MdAccessTime } from 'react-icons/md';

/** A message WhatsApp delivered undecryptable: it waits for the phone's resend, which replaces it. */
export function isWaitingMessage(message: Pick<MessageDto, 'mediaType' | 'isDeleted'>): boolean {
  return message.mediaType === 'ciphertext' && !message.isDeleted;
}

/** Whether a ticket's last message is one waiting for its resend (tickets keeps WhatsApp's waiting text there meanwhile). */
export function lastMessageWaits(ticket: Pick<TicketDto, 'lastMessage'>): boolean {
  return ticket.lastMessage === WAITING_MESSAGE_PREVIEW;
}

/**
 * WhatsApp's waiting text, as WhatsApp shows it (italic, grey, with a clock), in the user's language: in the chat
 * where the undecryptable message is, and as a ticket's last message meanwhile.
 */
export function WaitingMessage() {
  const { t } = useTranslation();
  return (
    <span
      data-testid="message-waiting"
      style={{ display: 'inline-flex', alignItems: 'center', gap: '0.25rem', fontStyle: 'italic', color: 'var(--chakra-colors-fg-muted)' }}
    >
      <MdAccessTime aria-hidden style={{ flexShrink: 0 }} />
      {t('chat.waiting')}
    </span>
  );
}
