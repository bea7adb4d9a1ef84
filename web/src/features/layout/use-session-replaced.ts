import { SocketChannels, type AuthChannelPayload } from '@wa/contracts';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { selectUser, sessionReplaced } from '../../app/session';
import { clearLocalStorage } from '../../app/storage';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { notify } from '../../app/notify';
import { useRealtime, useSocketEvent } from '../../realtime/RealtimeProvider';
import { leaveSessionEndNotice } from '../auth/session-end-notice';

/** spec 01 §4: the message is shown, and one second later the storage is cleared and the page reloads (on /login). */
export const SESSION_REPLACED_DELAY_MS = 1000;

export function useSessionReplaced(): void {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser);
  const client = useRealtime();
  // the notice may come twice (the revocation and the bus both carry it): it is shown once
  const ended = useRef(false);
  useSocketEvent<AuthChannelPayload>(user ? SocketChannels.auth(user.companyId) : null, (p) => {
    if (p?.action !== 'sessionReplaced' || p.user?.id !== user?.id || ended.current) return;
    ended.current = true;
    client?.close();
    dispatch(sessionReplaced());
    notify.warning(t('auth.sessionReplaced'), 10_000);
    setTimeout(() => {
      clearLocalStorage();
      leaveSessionEndNotice('auth.sessionReplaced');
      window.location.assign('/login');
    }, SESSION_REPLACED_DELAY_MS);
  });
}
