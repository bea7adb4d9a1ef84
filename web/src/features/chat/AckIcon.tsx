import { useTranslation } from 'react-i18next';
import { MdAccessTime, MdDone, MdDoneAll } from 'react-icons/md';
import { ackIcon } from './ack';

const LABEL = { clock: 'chat.ack.pending', sent: 'chat.ack.sent', delivered: 'chat.ack.delivered', read: 'chat.ack.read' } as const;
/** the read colour of WhatsApp; the others follow the text */
const READ_COLOR = 'var(--chakra-colors-ack-read)';

export function AckIcon({ ack }: { ack: number }) {
  const { t } = useTranslation();
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
