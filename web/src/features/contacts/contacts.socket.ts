import { SocketChannels, type ContactChannelPayload } from '@wa/contracts';
import { onChannel, type SocketHandler } from '../../realtime/use-socket-cache-sync';
import { changeContactLists } from './contacts.api';

/** `company-<id>-contact`: the contacts lists take the contact in, or drop it. */
export const contactsSocket: SocketHandler[] = [
  onChannel<ContactChannelPayload>(SocketChannels.contact, (p, { state, dispatch }) =>
    changeContactLists(state(), dispatch, p.action === 'delete' ? { removed: p.contactId } : { contact: p.contact }),
  ),
];
