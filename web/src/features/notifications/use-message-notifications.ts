import { SocketChannels, type AppMessageChannelPayload } from '@wa/contracts';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useMatch, useNavigate } from 'react-router-dom';
import { selectUser } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { useSocketEvent } from '../../realtime/RealtimeProvider';
import { storedVolume } from './volume';
import { playChime, unlockAudio } from './chime';
import { askNotificationPermissionOnce, showDesktopNotification } from './desktop-notification';
import { notificationBody, notificationTag, notificationTitle, shouldNotify, ticketPath } from './notification-rules';

/** Messages already announced (a replayed event does not ring twice). */
const REMEMBERED = 200;

/**
 * New customer messages while the user looks elsewhere (spec 01 §2 "Top bar"): a desktop notification
 * (title the contact, body the message; a click focuses the window and opens the ticket) and a short
 * chime at the volume slider's level. The permission is asked on the first click or key of the page.
 */
export function useMessageNotifications(): void {
  const { t } = useTranslation();
  const user = useAppSelector(selectUser);
  const navigate = useNavigate();
  const openTicket = useMatch('/tickets/:ticketId')?.params.ticketId;
  const seen = useRef<number[]>([]);

  useEffect(() => {
    function stop() {
      window.removeEventListener('pointerdown', first, true);
      window.removeEventListener('keydown', first, true);
    }
    function first() {
      askNotificationPermissionOnce();
      unlockAudio();
      stop();
    }
    window.addEventListener('pointerdown', first, true);
    window.addEventListener('keydown', first, true);
    return stop;
  }, []);

  useSocketEvent<AppMessageChannelPayload>(user ? SocketChannels.appMessage(user.companyId) : null, (p) => {
    if (!user) return;
    if (!shouldNotify(p, { userId: user.id, openTicket, pageHidden: document.visibilityState === 'hidden' })) return;
    if (seen.current.includes(p.message.id)) return;
    seen.current = [...seen.current.slice(-(REMEMBERED - 1)), p.message.id];
    playChime(storedVolume());
    const path = ticketPath(p.ticket);
    showDesktopNotification({
      title: notificationTitle(p) || t('notifications.newMessage'),
      body: notificationBody(p.message, t),
      tag: notificationTag(p.ticket),
      onClick: () => navigate(path),
    });
  });
}
