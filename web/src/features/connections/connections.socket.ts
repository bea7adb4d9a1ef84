import { SocketChannels, type WhatsappChannelPayload, type WhatsappSessionChannelPayload } from '@wa/contracts';
import { plain } from '../../app/cache';
import { i18n } from '../../app/i18n';
import { notify } from '../../app/notify';
import { selectIsAdmin } from '../../app/session';
import type { RootState } from '../../app/store';
import { onChannel, type Dispatch, type SocketHandler } from '../../realtime/use-socket-cache-sync';
import { connectionsApi, upsertConnection } from './connections.api';
import { forgetSessionEnd, noteSessionEvent, SESSION_END_TEXT } from './session-end';

/** How long the admins' toast of a session WhatsApp ended stays: it asks them to act. */
export const SESSION_END_TOAST_MS = 15_000;

/** `company-<id>-whatsapp` and `-whatsappSession`: the connections list. */
export function syncWhatsappEvent(p: WhatsappChannelPayload | WhatsappSessionChannelPayload, dispatch: Dispatch): void {
  if (p.action === 'delete') {
    const id = (p as { whatsappId: number }).whatsappId;
    forgetSessionEnd(id);
    dispatch(connectionsApi.util.updateQueryData('listWhatsapps', undefined, (d) => d.filter((w) => w.id !== id)));
    return;
  }
  const w = 'whatsapp' in p ? p.whatsapp : p.session;
  if (w) dispatch(connectionsApi.util.updateQueryData('listWhatsapps', undefined, (d) => upsertConnection(plain(d), w)));
}

/**
 * `company-<id>-whatsappSession`: the list follows, and when WhatsApp ended the session (a ban, a logout on the
 * phone, another client took it) the admins are told why at once; the connections page keeps the line until it reconnects.
 */
export function syncWhatsappSessionEvent(p: WhatsappSessionChannelPayload, state: RootState, dispatch: Dispatch): void {
  syncWhatsappEvent(p, dispatch);
  if (!p.session) return;
  const ended = noteSessionEvent(p);
  if (!ended || !selectIsAdmin(state)) return;
  const reason = i18n.t(SESSION_END_TEXT[ended.reason]);
  notify.warning(i18n.t('connections.sessionEnd.toast', { name: p.session.name, reason }), SESSION_END_TOAST_MS);
}

export const connectionsSocket: SocketHandler[] = [
  onChannel<WhatsappChannelPayload>(SocketChannels.whatsapp, (p, { dispatch }) => syncWhatsappEvent(p, dispatch)),
  onChannel<WhatsappSessionChannelPayload>(SocketChannels.whatsappSession, (p, { state, dispatch }) =>
    syncWhatsappSessionEvent(p, state(), dispatch),
  ),
];
