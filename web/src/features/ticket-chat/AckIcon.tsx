import { useTranslation } from 'react-i18next';
import { MdAccessTime, MdDone, MdDoneAll, MdErrorOutline } from 'react-icons/md';
import { ackIcon, failureText, sendFailed } from './ack';

const LABEL = { clock: 'chat.ack.pending', sent: 'chat.ack.sent', delivered: 'chat.ack.delivered', read: 'chat.ack.read' } as const;
/** the read colour of WhatsApp; the others follow the text */
const READ_COLOR = 'var(--chakra-colors-ack-read)';
/** a message given up: red, in place of the clock */
const FAILED_COLOR = 'var(--chakra-colors-fg-error)';

export function AckIcon({ ack, failedReason }: { ack: number; failedReason?: string | null }) {
  const { t } = useTranslation();
  if (sendFailed(ack, failedReason)) {
    const label = t('chat.ack.failed', { reason: failureText(failedReason, t) });
    // `title` becomes the SVG's <title>: the browser shows it as the tooltip
    return (
      <MdErrorOutline
        size={16}
        color={FAILED_COLOR}
        title={label}
        aria-label={label}
        role="img"
        data-testid="message-failed"
        data-ack={ack}
      />
    );
  }
  const kind = ackIcon(ack);
  const Glyph = kind === 'clock' ? MdAccessTime : kind === 'sent' ? MdDone : MdDoneAll;
  return (
    <Glyph
      size={16}
      color={kind === 'read' ? READ_COLOR : 'currentColor'}
      aria-label={t(LABEL[kind])}
      role="img"
      data-testid="message-ack"
      data-ack={ack}
      data-icon={kind}
    />
  );
}
