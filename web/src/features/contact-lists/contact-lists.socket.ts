import { CampaignChannels, type ContactListImportProgress } from '@wa/contracts';
import { onChannel, type SocketHandler } from '../../realtime/use-socket-cache-sync';
import { refreshContactListItems, refreshContactLists } from './contact-lists.api';
import { setImportProgress } from './import-progress';

/** What the two channels carry (campaigns.types `CampaignChannels`): an action, and for an import its progress. */
interface ListPayload {
  action?: string;
  progress?: ContactListImportProgress;
}

/**
 * `company-<id>-ContactList`: an import's progress goes to its bar (and, when it ends, the list and its items
 * reload); any other change reloads the lists. `company-<id>-ContactListItem`: the items reload.
 */
export const contactListsSocket: SocketHandler[] = [
  onChannel<ListPayload>(CampaignChannels.contactList, (p, { dispatch }) => {
    if (p.action === 'import' && p.progress) {
      setImportProgress(p.progress);
      if (!p.progress.done) return;
      dispatch(refreshContactListItems());
    }
    dispatch(refreshContactLists());
  }),
  onChannel<ListPayload>(CampaignChannels.contactListItem, (_p, { dispatch }) => {
    dispatch(refreshContactListItems());
    dispatch(refreshContactLists());
  }),
];
