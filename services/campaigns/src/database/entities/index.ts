import { Column, CreateDateColumn, Entity, PrimaryColumn, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { CampaignStatus } from '@wa/contracts';

/** spec 02 "Contact list". */
@Entity({ name: 'contact_lists' })
export class ContactListEntity {
  @PrimaryGeneratedColumn() id: number;
  @Column({ type: 'int' }) companyId: number;
  @Column({ type: 'varchar', length: 50 }) name: string;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}

/** spec 02 "Contact list item": one per number in a list. */
@Entity({ name: 'contact_list_items' })
export class ContactListItemEntity {
  @PrimaryGeneratedColumn() id: number;
  @Column({ type: 'int' }) companyId: number;
  @Column({ type: 'int' }) contactListId: number;
  @Column({ type: 'varchar', length: 50 }) name: string;
  @Column({ type: 'varchar', length: 50 }) number: string;
  @Column({ type: 'varchar', length: 255, default: '' }) email: string;
  /** null until the background check on WhatsApp answered */
  @Column({ type: 'boolean', nullable: true }) isWhatsappValid: boolean | null;
  @Column({ type: 'timestamptz', nullable: true }) checkedAt: Date | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}

/** A campaign setting of the company (spec 02 "Campaign settings"): `value` is JSON text. */
@Entity({ name: 'campaign_settings' })
export class CampaignSettingEntity {
  @PrimaryColumn({ type: 'int' }) companyId: number;
  @PrimaryColumn({ type: 'varchar', length: 40 }) key: string;
  @Column({ type: 'text' }) value: string;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}

/** spec 02 "Campaign". */
@Entity({ name: 'campaigns' })
export class CampaignEntity {
  @PrimaryGeneratedColumn() id: number;
  @Column({ type: 'int' }) companyId: number;
  @Column({ type: 'varchar', length: 50 }) name: string;
  @Column({ type: 'text', default: '' }) message1: string;
  @Column({ type: 'text', default: '' }) message2: string;
  @Column({ type: 'text', default: '' }) message3: string;
  @Column({ type: 'text', default: '' }) message4: string;
  @Column({ type: 'text', default: '' }) message5: string;
  @Column({ type: 'text', default: '' }) confirmationMessage1: string;
  @Column({ type: 'text', default: '' }) confirmationMessage2: string;
  @Column({ type: 'text', default: '' }) confirmationMessage3: string;
  @Column({ type: 'text', default: '' }) confirmationMessage4: string;
  @Column({ type: 'text', default: '' }) confirmationMessage5: string;
  @Column({ type: 'varchar', length: 20, default: 'INATIVA' }) status: CampaignStatus;
  @Column({ type: 'boolean', default: false }) confirmation: boolean;
  @Column({ type: 'timestamptz', nullable: true }) scheduledAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) completedAt: Date | null;
  @Column({ type: 'int', nullable: true }) whatsappId: number | null;
  @Column({ type: 'int', nullable: true }) contactListId: number | null;
  @Column({ type: 'varchar', length: 20, default: 'Nenhuma' }) tagListId: string;
  @Column({ type: 'text', nullable: true }) mediaPath: string | null;
  @Column({ type: 'text', nullable: true }) mediaName: string | null;
  @Column({ type: 'int', nullable: true }) fileListId: number | null;
  @Column({ type: 'text', nullable: true }) statusReason: string | null;
  /** raised by every change of schedule or status: a start job of an older version does nothing */
  @Column({ type: 'int', default: 0 }) version: number;
  @Column({ type: 'timestamptz', nullable: true }) startedAt: Date | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}

export type ShippingStatus =
  'pending' | 'confirming' | 'confirmed' | 'queued' | 'sent' | 'failed' | 'invalid' | 'opted_out' | 'unconfirmed';

/** One contact of a started campaign's frozen audience (unique per campaign and number). */
@Entity({ name: 'shippings' })
export class ShippingEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' }) id: string;
  @Column({ type: 'int' }) companyId: number;
  @Column({ type: 'int' }) campaignId: number;
  @Column({ type: 'int' }) connectionId: number;
  @Column({ type: 'varchar', length: 50 }) number: string;
  @Column({ type: 'varchar', length: 100, default: '' }) name: string;
  @Column({ type: 'varchar', length: 255, default: '' }) email: string;
  @Column({ type: 'varchar', length: 16, default: 'pending' }) status: ShippingStatus;
  @Column({ type: 'text', nullable: true }) confirmationMessage: string | null;
  @Column({ type: 'varchar', length: 64, nullable: true }) confirmationWaMessageId: string | null;
  @Column({ type: 'timestamptz', nullable: true }) confirmationRequestedAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) confirmedAt: Date | null;
  @Column({ type: 'text', nullable: true }) message: string | null;
  @Column({ type: 'varchar', length: 64, nullable: true }) waMessageId: string | null;
  @Column({ type: 'smallint', default: 0 }) ack: number;
  @Column({ type: 'timestamptz', nullable: true }) sentAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) deliveredAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) readAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) failedAt: Date | null;
  @Column({ type: 'text', nullable: true }) failedReason: string | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}

/** A number that asked the company to stop sending it campaigns. */
@Entity({ name: 'opt_outs' })
export class OptOutEntity {
  @PrimaryColumn({ type: 'int' }) companyId: number;
  @PrimaryColumn({ type: 'varchar', length: 50 }) number: string;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}

/** campaigns' copy of a connection (whatsapp-sessions' `connection.*` events): its pace fields and status. */
@Entity({ name: 'connections' })
export class ConnectionCopyEntity {
  @PrimaryColumn({ type: 'int' }) id: number;
  @Column({ type: 'int' }) companyId: number;
  @Column({ type: 'varchar', length: 255, default: '' }) name: string;
  @Column({ type: 'int', default: 0 }) campaignDailyLimit: number;
  @Column({ type: 'boolean', default: false }) campaignWarmup: boolean;
  @Column({ type: 'varchar', length: 11, default: '' }) campaignHours: string;
  @Column({ type: 'varchar', length: 20, default: '' }) status: string;
  @Column({ type: 'boolean', default: false }) isDefault: boolean;
  @Column({ type: 'timestamptz', nullable: true }) connectedSince: Date | null;
  @Column({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
  @Column({ type: 'boolean', default: false }) deleted: boolean;
}

export const CAMPAIGNS_ENTITIES = [
  ContactListEntity,
  ContactListItemEntity,
  CampaignSettingEntity,
  CampaignEntity,
  ShippingEntity,
  OptOutEntity,
  ConnectionCopyEntity,
];
