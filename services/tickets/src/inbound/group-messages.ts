import { Injectable, Logger } from '@nestjs/common';
import { metricsRegistry } from '@wa/server-kit';
import type { WaInboundMessage } from '@wa/contracts';
import { Counter } from 'prom-client';
import { SettingsMemo } from '../read-models/settings-memo.js';

/** The company setting that ignores group messages (spec 02 §3; the product's CheckMsgIsGroup). */
export const GROUP_MESSAGES_SETTING = 'CheckMsgIsGroup';

/**
 * Whether a company with this value of CheckMsgIsGroup ignores group messages: yes unless it is 'disabled' (auth
 * gives every company 'enabled'; a company tickets has no copy of yet follows that default).
 */
export function ignoresGroups(value: string | undefined): boolean {
  return value !== 'disabled';
}

/** Group messages dropped before anything was stored, because their company ignores groups. */
const groupMessagesIgnored = new Counter({
  name: 'tickets_inbound_group_messages_ignored_total',
  help: 'Inbound group messages acked and dropped unstored: their company has CheckMsgIsGroup enabled',
  registers: [metricsRegistry],
});

/**
 * CheckMsgIsGroup on the inbound path: while a company's setting is 'enabled', its group messages (a customer's
 * and the phone's own, `isGroup`) are acked and dropped before anything is stored (no contact, no ticket, no
 * message, no bot), as the product does; 'disabled' lets them become group tickets. Only a batch holding a group
 * message asks the setting, and then from SettingsMemo (a lookup every few seconds per company, not per batch).
 */
@Injectable()
export class GroupMessages {
  private readonly logger = new Logger(GroupMessages.name);

  constructor(private readonly settings: SettingsMemo) {}

  /** The batch without the group messages of companies that ignore them (the same array when it has none). */
  async withoutIgnored<T extends { data: WaInboundMessage }>(batch: T[]): Promise<T[]> {
    const groups = batch.filter((m) => m.data.isGroup);
    if (groups.length === 0) return batch;
    const values = await this.settings.valuesOf(
      groups.map((m) => m.data.companyId),
      GROUP_MESSAGES_SETTING,
    );
    const ignoring = new Set([...values].filter(([, value]) => ignoresGroups(value)).map(([companyId]) => companyId));
    if (ignoring.size === 0) return batch;
    const dropped = groups.filter((m) => ignoring.has(m.data.companyId));
    groupMessagesIgnored.inc(dropped.length);
    this.logger.debug({ companies: [...ignoring], dropped: dropped.length }, 'inbound: group messages ignored (CheckMsgIsGroup)');
    return batch.filter((m) => !(m.data.isGroup && ignoring.has(m.data.companyId)));
  }
}
