import type { ConnectionProviderKind, ConnectionStatus, SessionEndReason } from '@wa/contracts';
import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A connection (WhatsApp number) of a company: the `/whatsapp` record, spec 01 §3. */
@Entity({ name: 'connections' })
export class ConnectionEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'int' })
  companyId: number;

  @Column({ type: 'varchar', length: 50 })
  name: string;

  @Column({ type: 'varchar', length: 20, default: 'DISCONNECTED' })
  status: ConnectionStatus;

  @Column({ type: 'text', default: '' })
  qrcode: string;

  @Column({ type: 'int', default: 0 })
  retries: number;

  @Column({ type: 'boolean', default: false })
  isDefault: boolean;

  /** sealed (AES-256-GCM, see ConnectionTokens), never in clear */
  @Column({ type: 'text', nullable: true })
  token: string | null;

  /** HMAC of the token: unique, and how the public API finds the connection */
  @Column({ type: 'varchar', length: 64, nullable: true })
  tokenHash: string | null;

  @Column({ type: 'text', default: '' })
  greetingMessage: string;

  /** the product's own spelling */
  @Column({ type: 'text', default: '' })
  complationMessage: string;

  @Column({ type: 'text', default: '' })
  outOfHoursMessage: string;

  @Column({ type: 'text', default: '' })
  ratingMessage: string;

  @Column({ type: 'text', default: '' })
  expiresInactiveMessage: string;

  @Column({ type: 'int', default: 0 })
  expiresTicket: number;

  @Column({ type: 'int', default: 0 })
  timeToTransfer: number;

  @Column({ type: 'int', nullable: true })
  transferQueueId: number | null;

  @Column({ type: 'int', default: 0 })
  timeUseBotQueues: number;

  @Column({ type: 'int', default: 3 })
  maxUseBotQueues: number;

  @Column({ type: 'varchar', length: 20, default: 'beta' })
  provider: string;

  @Column({ type: 'varchar', length: 20, default: 'sandbox' })
  channel: ConnectionProviderKind;

  @Column({ type: 'int', nullable: true })
  promptId: number | null;

  /** the paired phone's number, once connected */
  @Column({ type: 'varchar', length: 50, nullable: true })
  number: string | null;

  /** queue ids (queues are owned by tickets) */
  @Column({ type: 'int', array: true, default: () => "'{}'" })
  queueIds: number[];

  /** campaign sends a day on this connection; 0: no cap */
  @Column({ type: 'int', default: 0 })
  campaignDailyLimit: number;

  /** a new number's campaign cap ramps up over its first weeks */
  @Column({ type: 'boolean', default: false })
  campaignWarmup: boolean;

  /** 'HH:MM-HH:MM' when campaigns may send, '' for any hour */
  @Column({ type: 'varchar', length: 11, default: '' })
  campaignHours: string;

  /** why WhatsApp ended the session (banned, logged_out, replaced), kept until it is back or an admin disconnects it */
  @Column({ type: 'varchar', length: 20, nullable: true })
  endReason: SessionEndReason | null;

  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
