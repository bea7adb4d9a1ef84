import { Injectable, Logger } from '@nestjs/common';
import { SocketChannels, type SettingsChannelPayload, type SettingUpdatedEvent } from '@wa/contracts';
import type { BusMessage } from '@wa/event-bus';
import { Rooms } from '../../realtime/rooms.js';
import { eventCompany, type Emission } from '../emission.js';

/** `company.setting.updated.<companyId>.<key>` */
const COMPANY_INDEX = 3;
export const SETTINGS_FILTER = 'company.setting.updated.>';

/**
 * auth's setting changes → `company-<id>-settings` to the company's sockets (spec 02 §3: each change of the
 * settings page live for the company). auth already masks a secret setting's value in the event.
 */
@Injectable()
export class SettingsConsumer {
  private readonly log = new Logger(SettingsConsumer.name);

  emissions(msg: BusMessage<unknown>): Emission[] {
    const companyId = eventCompany(msg.subject, COMPANY_INDEX, msg.data);
    const e = msg.data as SettingUpdatedEvent;
    if (companyId === null || typeof e.key !== 'string' || typeof e.value !== 'string') {
      this.log.warn({ subject: msg.subject, seq: msg.streamSeq }, 'event not fanned out: bad setting event');
      return [];
    }
    const payload: SettingsChannelPayload = { action: 'update', setting: { key: e.key, value: e.value } };
    return [{ rooms: [Rooms.company(companyId)], channel: SocketChannels.settings(companyId), payload }];
  }
}
