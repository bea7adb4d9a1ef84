import { Injectable, Logger } from '@nestjs/common';
import { CampaignChannels, CampaignSubjects, type CampaignChangedEvent, type ContactListChangedEvent } from '@wa/contracts';
import type { BusMessage } from '@wa/event-bus';
import { Rooms } from '../../realtime/rooms.js';
import { eventCompany, isId, type Emission } from '../emission.js';

/** campaigns' `campaign.changed.<companyId>.<campaignId>`; not the sends nor the sent (`campaign.send|sent.*`), which are no screen's. */
export const CAMPAIGNS_FILTER = CampaignSubjects.allChanged;
/** campaigns' `campaign.list.<companyId>.<contactListId>` */
export const CAMPAIGN_LISTS_FILTER = CampaignSubjects.allLists;

/** `campaign.<kind>.<companyId>.<id>` */
const COMPANY_INDEX = 2;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * The campaign pages live (spec 02 §7 "Real-time channels"), each to its company's sockets only: a campaign's
 * changes on `company-<id>-campaign`, a contact list's on `company-<id>-ContactList` (with an import's progress),
 * its items' on `company-<id>-ContactListItem` (`reload` when an import stored rows).
 */
@Injectable()
export class CampaignsConsumer {
  private readonly log = new Logger(CampaignsConsumer.name);

  campaigns(msg: BusMessage<unknown>): Emission[] {
    const companyId = eventCompany(msg.subject, COMPANY_INDEX, msg.data);
    const e = msg.data as CampaignChangedEvent;
    let payload: unknown;
    if (companyId !== null && (e.action === 'create' || e.action === 'update') && isObject(e.record) && isId(e.record.id)) {
      payload = { action: e.action, record: e.record, ...(isObject(e.report) ? { report: e.report } : {}) };
    } else if (companyId !== null && e.action === 'delete' && isId(e.campaignId)) {
      // the event names it campaignId, the channel's description id: both, so either reader finds it
      payload = { action: 'delete', campaignId: e.campaignId, id: e.campaignId };
    }
    if (companyId === null || payload === undefined) return this.skip(msg, 'bad campaign event');
    return [{ rooms: [Rooms.company(companyId)], channel: CampaignChannels.campaign(companyId), payload }];
  }

  lists(msg: BusMessage<unknown>): Emission[] {
    const companyId = eventCompany(msg.subject, COMPANY_INDEX, msg.data);
    const e = msg.data as ContactListChangedEvent;
    if (companyId === null || !isId(e.contactListId)) return this.skip(msg, 'bad contact list event');
    const list = (payload: unknown): Emission[] => [
      { rooms: [Rooms.company(companyId)], channel: CampaignChannels.contactList(companyId), payload },
    ];
    const items = (payload: unknown): Emission[] => [
      { rooms: [Rooms.company(companyId)], channel: CampaignChannels.contactListItem(companyId), payload },
    ];
    switch (e.action) {
      case 'create':
      case 'update':
        if (isObject(e.record) && isId(e.record.id)) return list({ action: e.action, record: e.record });
        break;
      case 'delete':
        return list({ action: 'delete', id: e.contactListId });
      case 'import':
        if (isObject(e.progress)) return list({ action: 'import', progress: e.progress });
        break;
      case 'item':
        // the event does not say whether the item is new: a row never changed since its insert is
        if (isObject(e.item) && isId(e.item.id)) {
          return items({ action: e.item.createdAt === e.item.updatedAt ? 'create' : 'update', record: e.item });
        }
        break;
      case 'item-delete':
        if (isId(e.itemId)) return items({ action: 'delete', id: e.itemId });
        break;
      case 'items':
        return items({ action: 'reload', contactListId: e.contactListId });
    }
    return this.skip(msg, 'bad contact list event');
  }

  private skip(msg: BusMessage<unknown>, why: string): Emission[] {
    this.log.warn({ subject: msg.subject, seq: msg.streamSeq }, `event not fanned out: ${why}`);
    return [];
  }
}
