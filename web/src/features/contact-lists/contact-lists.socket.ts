import { CampaignChannels, type ContactListDto, type ContactListImportProgress, type ContactListItemDto } from '@wa/contracts';
import type { RootState } from '../../app/store';
import { onChannel, type Dispatch, type SocketHandler } from '../../realtime/use-socket-cache-sync';
import { contactListsApi, refreshContactListItems, refreshContactLists } from './contact-lists.api';
import { setImportProgress } from './import-progress';

/** What the two channels carry (campaigns.types `CampaignChannels`): an action, a record, or an import's progress. */
interface ListPayload<R> {
  action?: string;
  record?: R;
  progress?: ContactListImportProgress;
}

/**
 * Replaces the record where the cached pages of that endpoint hold it. Answers false when it could not: no cached
 * page holds it yet, or a page is being fetched (its answer may predate the change and would overwrite the patch).
 */
function patchPages<R extends { id: number }>(
  state: RootState,
  dispatch: Dispatch,
  endpoint: 'listContactLists' | 'listContactListItems',
  record: R,
): boolean {
  const tag = endpoint === 'listContactLists' ? 'CampaignContactList' : 'CampaignContactListItem';
  let found = false;
  let fetching = false;
  for (const entry of contactListsApi.util.selectInvalidatedBy(state, [tag])) {
    if (entry.endpointName !== endpoint) continue;
    const cached = state[contactListsApi.reducerPath].queries[entry.queryCacheKey];
    if (cached?.status === 'pending') fetching = true;
    const pages = (cached?.data as { pages?: Array<{ records?: R[]; contacts?: R[] }> } | undefined)?.pages ?? [];
    if (pages.some((page) => (page.records ?? page.contacts ?? []).some((r) => r.id === record.id))) found = true;
    dispatch(
      contactListsApi.util.updateQueryData(endpoint, entry.originalArgs as never, (d) => {
        for (const page of d.pages) {
          const rows = ('records' in page ? page.records : page.contacts) as unknown as R[];
          const i = rows.findIndex((r) => r.id === record.id);
          if (i >= 0) rows[i] = record;
        }
      }),
    );
  }
  return found && !fetching;
}

/**
 * `company-<id>-ContactList`: an import's progress goes to its bar (when it ends, the lists and items reload);
 * an update is patched in place; anything else reloads the lists. `company-<id>-ContactListItem`: an update (the
 * WhatsApp check answered) is patched in place; a new or deleted item, or an import's rows, reload the items.
 */
export const contactListsSocket: SocketHandler[] = [
  onChannel<ListPayload<ContactListDto>>(CampaignChannels.contactList, (p, { state, dispatch }) => {
    if (p.action === 'import' && p.progress) {
      setImportProgress(p.progress);
      if (!p.progress.done) return;
      dispatch(refreshContactListItems());
    }
    if (p.action === 'update' && p.record) {
      dispatch(contactListsApi.util.updateQueryData('getContactList', p.record.id, () => p.record));
      if (patchPages(state(), dispatch, 'listContactLists', p.record)) return;
    }
    dispatch(refreshContactLists());
  }),
  onChannel<ListPayload<ContactListItemDto>>(CampaignChannels.contactListItem, (p, { state, dispatch }) => {
    // patched in place when the cache holds the item; else (a page still loading) the items reload, so a page fetched
    // before the change cannot hide it
    if (p.action === 'update' && p.record && patchPages(state(), dispatch, 'listContactListItems', p.record)) return;
    dispatch(refreshContactListItems());
    dispatch(refreshContactLists());
  }),
];
