import type { SocketHandler } from '../../realtime/use-socket-cache-sync';
import { announcementsSocket } from '../announcements/announcements.socket';
import { billingSocket } from '../billing/billing.socket';
import { campaignsSocket } from '../campaigns/campaigns.socket';
import { connectionsSocket } from '../connections/connections.socket';
import { contactListsSocket } from '../contact-lists/contact-lists.socket';
import { contactsSocket } from '../contacts/contacts.socket';
import { filesSocket } from '../files/files.socket';
import { helpsSocket } from '../helps/helps.socket';
import { platformSocket } from '../platform/platform.socket';
import { queuesSocket } from '../queues/queues.socket';
import { schedulesSocket } from '../schedules/schedules.socket';
import { settingsSocket } from '../settings/settings.socket';
import { teamChatSocket } from '../team-chat/team-chat.socket';
import { ticketChatSocket } from '../ticket-chat/ticket-chat.socket';
import { ticketsSocket } from '../tickets/tickets.socket';
import { usersSocket } from '../users/users.socket';

/** Every feature's socket handlers, the one place they are registered; the signed-in layout mounts them once. */
export const SOCKET_HANDLERS: ReadonlyArray<SocketHandler> = [
  ...ticketsSocket,
  ...ticketChatSocket,
  ...connectionsSocket,
  ...contactsSocket,
  ...schedulesSocket,
  ...usersSocket,
  ...queuesSocket,
  ...teamChatSocket,
  ...announcementsSocket,
  ...filesSocket,
  ...settingsSocket,
  ...platformSocket,
  ...helpsSocket,
  ...campaignsSocket,
  ...contactListsSocket,
  ...billingSocket,
];
