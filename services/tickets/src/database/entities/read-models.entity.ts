import type { ConnectionStatus } from '@wa/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** What tickets keeps of a connection's bot settings (from whatsapp-sessions' connection events). */
export interface ConnectionBot {
  outOfHoursMessage?: string;
  complationMessage?: string;
  ratingMessage?: string;
  expiresInactiveMessage?: string;
  /** minutes without a message after which an open or waiting ticket is closed; 0: never */
  expiresTicket?: number;
  transferQueueId?: number | null;
  /** minutes a waiting ticket the bot still holds (or with no queue) waits before it goes to transferQueueId; 0: never */
  timeToTransfer?: number;
  /** minutes within which unknown answers are counted; 0: no window */
  timeUseBotQueues?: number;
  /** how many times an unknown answer repeats the menu before the ticket is handed over; 0: no limit */
  maxUseBotQueues?: number;
}

/** The connection's defaults (spec 01 §9): maxUseBotQueues 3, expiresTicket 0, timeUseBotQueues 0, timeToTransfer 0. */
export const BOT_DEFAULTS = { maxUseBotQueues: 3, expiresTicket: 0, timeUseBotQueues: 0, timeToTransfer: 0 } as const;

/** Read model of whatsapp-sessions' connections (fed by connection.* events). */
@Entity({ name: 'connections' })
export class ConnectionEntity {
  @PrimaryColumn({ type: 'int' }) id: number;
  @Column({ type: 'int' }) companyId: number;
  @Column({ type: 'varchar', length: 100 }) name: string;
  @Column({ type: 'varchar', length: 20 }) status: ConnectionStatus;
  @Column({ type: 'boolean', default: false }) isDefault: boolean;
  @Column({ type: 'int', array: true, default: () => "'{}'" }) queueIds: number[];
  @Column({ type: 'text', default: '' }) greetingMessage: string;
  /** the connection's bot settings (its texts, menu limits, expiry, transfer queue) */
  @Column({ type: 'jsonb', default: () => "'{}'" }) bot: ConnectionBot;
  @Column({ type: 'timestamptz', default: () => 'now()' }) updatedAt: Date;
}

/** Read model of auth's company settings (fed by company.setting.updated events). */
@Entity({ name: 'company_settings' })
export class CompanySettingEntity {
  @PrimaryColumn({ type: 'int' }) companyId: number;
  @PrimaryColumn({ type: 'varchar', length: 100 }) key: string;
  @Column({ type: 'text' }) value: string;
}
