import { lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { MdForum } from 'react-icons/md';
import { Deferred } from '../../app/Deferred';
import { CountIconButton } from '../../components/CountIconButton';
import { unreadLabel } from './chat-rules';
import { useUnreadChats } from './use-unread-chats';

// the popover loads when first opened
const ChatsPopover = lazy(() => import('./ChatsPopover'));

/**
 * The top bar's internal chat (spec 01 §2 "Top bar"), for plans with useInternalChat: a button with the
 * user's unread chat messages, kept live by the socket; the chats holding them open in a popover.
 */
export function ChatsButton() {
  const { t } = useTranslation();
  const { enabled, chats, total, loading } = useUnreadChats();
  if (!enabled) return null;
  const count = unreadLabel(total);

  const button = (onClick?: () => void) => (
    <CountIconButton
      label={t('chats.popover.title')}
      icon={<MdForum />}
      count={total}
      badge={count}
      testId="chats-popover-button"
      badgeTestId="chats-unread-count"
      onClick={onClick}
    />
  );

  return (
    <Deferred placeholder={button}>
      <ChatsPopover trigger={button()} chats={chats} loading={loading} />
    </Deferred>
  );
}
