import { Injectable } from '@nestjs/common';
import type { CampaignDto } from '@wa/contracts';

/**
 * What the campaigns module asks of the dispatcher (the server's side of a campaign's life, spec 02 §4):
 * `armed` after every save that commits a PROGRAMADA campaign's date (or takes it away); `cancel` and `restart`
 * (POST /campaigns/{id}/cancel|restart) answer the record as it is after the change, or throw a DomainError
 * (ERR_NOT_FOUND for another company's id, ERR_CAMPAIGN_NOT_RUNNING / ERR_CAMPAIGN_NOT_CANCELLED for a state that
 * does not allow it).
 */
@Injectable()
export class CampaignLifecycle {
  /** (Re)arms the start of a PROGRAMADA campaign at its scheduledAt (a BullMQ delayed job keyed by id and version); nothing for another state. */
  async armed(companyId: number, campaignId: number): Promise<void> {
    void companyId;
    void campaignId;
  }

  async cancel(companyId: number, campaignId: number): Promise<CampaignDto> {
    throw new Error(`not yet: cancel ${companyId}/${campaignId}`);
  }

  async restart(companyId: number, campaignId: number): Promise<CampaignDto> {
    throw new Error(`not yet: restart ${companyId}/${campaignId}`);
  }
}
