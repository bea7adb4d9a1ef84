import { SocketChannels, type WhatsappChannelPayload, type WhatsappSessionChannelPayload } from '@wa/contracts';
import { plain } from '../../app/cache';
import { onChannel, type Dispatch, type SocketHandler } from '../../realtime/use-socket-cache-sync';
import { connectionsApi, upsertConnection } from './connections.api';

/** `company-<id>-whatsapp` and `-whatsappSession`: the connections list. */
export function syncWhatsappEvent(p: WhatsappChannelPayload | WhatsappSessionChannelPayload, dispatch: Dispatch): void {
  if (p.action === 'delete') {
    const id = (p as { whatsappId: number }).whatsappId;
    dispatch(connectionsApi.util.updateQueryData('listWhatsapps', undefined, (d) => d.filter((w) => w.id !== id)));
    return;
  }
  const w = 'whatsapp' in p ? p.whatsapp : p.session;
  if (w) dispatch(connectionsApi.util.updateQueryData('listWhatsapps', undefined, (d) => upsertConnection(plain(d), w)));
}

export const connectionsSocket: SocketHandler[] = [
  onChannel<WhatsappChannelPayload>(SocketChannels.whatsapp, (p, { dispatch }) => syncWhatsappEvent(p, dispatch)),
  onChannel<WhatsappSessionChannelPayload>(SocketChannels.whatsappSession, (p, { dispatch }) => syncWhatsappEvent(p, dispatch)),
];
