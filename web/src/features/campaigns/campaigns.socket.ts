import { CampaignChannels, type CampaignChangedEvent } from '@wa/contracts';
import type { RootState } from '../../app/store';
import { onChannel, type Dispatch, type SocketHandler } from '../../realtime/use-socket-cache-sync';
import { campaignsApi, refreshCampaigns } from './campaigns.api';

/**
 * `company-<id>-campaign`: an update patches the campaign where it is cached (every list, the open one) and,
 * when it carries one, its report; a create or delete reloads the lists.
 */
export function syncCampaignEvent(p: CampaignChangedEvent, state: RootState, dispatch: Dispatch): void {
  if (p.action !== 'update' || !p.record) {
    dispatch(refreshCampaigns());
    return;
  }
  const record = p.record;
  for (const entry of campaignsApi.util.selectInvalidatedBy(state, ['Campaign'])) {
    if (entry.endpointName === 'listCampaigns') {
      dispatch(
        campaignsApi.util.updateQueryData('listCampaigns', entry.originalArgs as string, (d) => {
          for (const page of d.pages) {
            const i = page.records.findIndex((r) => r.id === record.id);
            if (i >= 0) page.records[i] = record;
          }
        }),
      );
    }
  }
  dispatch(campaignsApi.util.updateQueryData('getCampaign', record.id, () => record));
  if (p.report) dispatch(campaignsApi.util.upsertQueryData('campaignReport', record.id, p.report));
}

export const campaignsSocket: SocketHandler[] = [
  onChannel<CampaignChangedEvent>(CampaignChannels.campaign, (p, { state, dispatch }) => syncCampaignEvent(p, state(), dispatch)),
];
