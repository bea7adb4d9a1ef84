import type { ConnectionBot } from '../../bot/bot-rules.js';
import type { ConnectionStatus } from '@wa/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

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
