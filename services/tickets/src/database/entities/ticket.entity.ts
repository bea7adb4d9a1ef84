import type { BotState } from '../../bot/bot-rules.js';
import type { TicketStatus } from '@wa/contracts';
import { Column, CreateDateColumn, Entity, Generated, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'tickets' })
export class TicketEntity {
  @PrimaryGeneratedColumn() id: number;
  @Column({ type: 'uuid' }) @Generated('uuid') uuid: string;
  @Column({ type: 'int' }) companyId: number;
  @Column({ type: 'varchar', length: 10, default: 'pending' }) status: TicketStatus;
  @Column({ type: 'int' }) contactId: number;
  @Column({ type: 'int' }) whatsappId: number;
  @Column({ type: 'int', nullable: true }) queueId: number | null;
  @Column({ type: 'int', nullable: true }) userId: number | null;
  @Column({ type: 'text', default: '' }) lastMessage: string;
  @Column({ type: 'int', default: 0 }) unreadMessages: number;
  @Column({ type: 'boolean', default: false }) isGroup: boolean;
  @Column({ type: 'boolean', default: false }) chatbot: boolean;
  @Column({ type: 'boolean', default: false }) useIntegration: boolean;
  @Column({ type: 'int', nullable: true }) promptId: number | null;
  @Column({ type: 'int', nullable: true }) integrationId: number | null;
  /** when it was last accepted (kept by the ticket_facts trigger: the dashboard's figures) */
  @Column({ type: 'timestamptz', nullable: true, insert: false, update: false }) acceptedAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true, insert: false, update: false }) closedAt: Date | null;
  /** when it entered the waiting list (created pending or returned to it); null once reopened */
  @Column({ type: 'timestamptz', nullable: true, insert: false, update: false }) queuedAt: Date | null;
  /** the customer's answer to the rating request: 1 unsatisfied, 2 satisfied, 3 very satisfied */
  @Column({ type: 'smallint', nullable: true }) rating: number | null;
  /** where the bot is with this ticket (null: it has not seen it) */
  @Column({ type: 'jsonb', nullable: true }) botState: BotState | null;
  /** when closing it asked the customer for a rating, until answered or passed over */
  @Column({ type: 'timestamptz', nullable: true }) ratingAskedAt: Date | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
