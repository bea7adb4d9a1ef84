import {
  SocketChannels,
  type AnnouncementEvent,
  type AppMessageChannelPayload,
  type ChatChannelPayload,
  type ContactChannelPayload,
  type FilesChannelPayload,
  type QueueChannelPayload,
  type ScheduleChannelPayload,
  type SettingsChannelPayload,
  type TicketChannelPayload,
  type UserChannelPayload,
  type WhatsappChannelPayload,
  type WhatsappSessionChannelPayload,
} from '@wa/contracts';
import { useEffect } from 'react';
import { useStore } from 'react-redux';
import { plain } from '../app/cache';
import { companySettingChanged, selectIsAdmin, selectUser } from '../app/session';
import { useAppDispatch, useAppSelector, type RootState } from '../app/store';
import { syncAnnouncementEvent } from '../features/announcements/announcements.api';
import { authApi } from '../features/auth/auth.api';
import { chatApi } from '../features/chat/chat.api';
import { syncChatEvent } from '../features/chats/chats.api';
import { addMessage, replaceMessage, type MessagePages } from '../features/chat/message-rules';
import { connectionsApi, upsertConnection } from '../features/connections/connections.api';
import { syncFilesEvent } from '../features/files/files.api';
import { changeContactLists } from '../features/contacts/contacts.api';
import { queueEventChange } from '../features/queues/queue-rules';
import { changeQueueList } from '../features/queues/queues.api';
import { changeScheduleLists } from '../features/schedules/schedules.api';
import { withSetting } from '../features/settings/settings-rules';
import { containsTicket, onNewMessage } from '../features/tickets/ticket-list-rules';
import { applyTicketToCaches, changeTicketLists, ticketsApi } from '../features/tickets/tickets.api';
import { changeUserLists } from '../features/users/users.api';
import { userEventChange } from '../features/users/users-list-rules';
import { useRealtime } from './RealtimeProvider';

type Dispatch = (action: unknown) => unknown;


/** `company-<id>-ticket`: lists follow the rules of spec 01 §4 "Live updates"; the chat header follows its ticket. */
export function syncTicketEvent(p: TicketChannelPayload, state: RootState, dispatch: Dispatch): void {
  switch (p.action) {
    case 'update':
      applyTicketToCaches(p.ticket, state, dispatch);
      return;
    case 'delete':
      changeTicketLists(state, dispatch, () => ({ kind: 'remove', ticketId: p.ticketId }));
      return;
    case 'updateUnread':
      changeTicketLists(state, dispatch, () => ({ kind: 'unread-cleared', ticketId: p.ticketId }));
      return;
  }
}

/** `company-<id>-appMessage`: the open chat gets the message (or its new ack); the ticket moves to the top of its lists. */
export function syncMessageEvent(p: AppMessageChannelPayload, state: RootState, dispatch: Dispatch): void {
  const ticketId = p.message.ticketId;
  if (p.action === 'create') {
    dispatch(chatApi.util.updateQueryData('messages', ticketId, (draft) => addMessage(plain(draft) as MessagePages, p.message)));
    if (p.ticket) {
      const userId = state.session.user?.id ?? -1;
      dispatch(ticketsApi.util.updateQueryData('ticketByUuid', p.ticket.uuid, () => p.ticket));
      changeTicketLists(state, dispatch, (args, data) => onNewMessage(p.ticket, args, userId, containsTicket(data, p.ticket.id)));
    }
  } else {
    dispatch(chatApi.util.updateQueryData('messages', ticketId, (draft) => replaceMessage(plain(draft) as MessagePages, p.message)));
  }
}

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

/** `company-<id>-schedule` (to the author and the admins): the calendar ranges and an open schedule dialog follow it. */
export function syncScheduleEvent(p: ScheduleChannelPayload, state: RootState, dispatch: Dispatch): void {
  changeScheduleLists(state, dispatch, p.action === 'delete' ? { removed: p.scheduleId } : { schedule: p.schedule });
}

/** `company-<id>-user`: the users page's lists follow (a new user joins in name order, a deleted one leaves). */
export function syncUserEvent(p: UserChannelPayload, state: RootState, dispatch: Dispatch): void {
  changeUserLists(state, dispatch, userEventChange(p));
}

/** `company-<id>-queue`: the queues list (read by the queues page and the queue pickers) follows, in its order. */
export function syncQueueEvent(p: QueueChannelPayload, dispatch: Dispatch): void {
  changeQueueList(dispatch, queueEventChange(p));
}

/**
 * `company-<id>-settings` (to everyone of the company, a secret already masked): the cached `GET /settings`
 * list (the settings page, the queue dialog) and the signed-in user's `company.settings` take the new value.
 */
export function syncSettingsEvent(p: SettingsChannelPayload, state: RootState, dispatch: Dispatch): void {
  if (p.action !== 'update') return;
  const { key, value } = p.setting;
  dispatch(authApi.util.updateQueryData('settings', undefined, (d) => withSetting(plain(d), key, value)));
  if (state.session.user?.company?.settings?.some((s) => s.key === key)) dispatch(companySettingChanged({ key, value }));
}

/** Turns the company's live events into cache updates (STYLE "Web"); mounted once in the layout. */
export function useSocketCacheSync(): void {
  const client = useRealtime();
  const store = useStore<RootState>();
  const dispatch = useAppDispatch();
  const companyId = useAppSelector(selectUser)?.companyId;
  const isAdmin = useAppSelector(selectIsAdmin);

  useEffect(() => {
    if (!client || !companyId) return;
    const offs = [
      client.on<TicketChannelPayload>(SocketChannels.ticket(companyId), (p) => syncTicketEvent(p, store.getState(), dispatch)),
      client.on<AppMessageChannelPayload>(SocketChannels.appMessage(companyId), (p) => syncMessageEvent(p, store.getState(), dispatch)),
      client.on<WhatsappChannelPayload>(SocketChannels.whatsapp(companyId), (p) => syncWhatsappEvent(p, dispatch)),
      client.on<WhatsappSessionChannelPayload>(SocketChannels.whatsappSession(companyId), (p) => syncWhatsappEvent(p, dispatch)),
      client.on<ContactChannelPayload>(SocketChannels.contact(companyId), (p) =>
        changeContactLists(store.getState(), dispatch, p.action === 'delete' ? { removed: p.contactId } : { contact: p.contact }),
      ),
      client.on<ScheduleChannelPayload>(SocketChannels.schedule(companyId), (p) => syncScheduleEvent(p, store.getState(), dispatch)),
      client.on<UserChannelPayload>(SocketChannels.user(companyId), (p) => syncUserEvent(p, store.getState(), dispatch)),
      client.on<QueueChannelPayload>(SocketChannels.queue(companyId), (p) => syncQueueEvent(p, dispatch)),
      client.on<ChatChannelPayload>(SocketChannels.chat(companyId), (p) => syncChatEvent(p, store.getState(), dispatch)),
      // platform-wide, to every socket: the announcements lists (the top bar's popover, /announcements)
      client.on<AnnouncementEvent>(SocketChannels.announcement(), (p) => syncAnnouncementEvent(p, store.getState(), dispatch)),
      client.on<FilesChannelPayload>(SocketChannels.files(companyId), (p) => syncFilesEvent(p, store.getState(), dispatch)),
      client.on<SettingsChannelPayload>(SocketChannels.settings(companyId), (p) => syncSettingsEvent(p, store.getState(), dispatch)),
    ];
    const leave = client.join('joinNotification');
    return () => {
      for (const off of offs) off();
      leave();
    };
  }, [client, companyId, isAdmin, store, dispatch]);
}
