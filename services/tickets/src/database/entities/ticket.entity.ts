import type { TicketStatus } from '@wa/contracts';
import { Column, CreateDateColumn, Entity, Generated, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** Where the bot is with a ticket. */
export interface BotState {
  /**
   * `queues`: the customer picks a queue; `options`: a level of the queue's options; `delegate`: the queue's
   * AI prompt answers; `done`: the bot is quiet
   */
  step: 'queues' | 'options' | 'delegate' | 'done';
  /** in `options`: the queue, and the option whose children are on screen (null: the queue's first level) */
  queueId?: number;
  parentId?: number | null;
  /** unknown answers counted, since `firstMissAt` */
  attempts: number;
  firstMissAt?: string;
  /** the first menu or greeting went out (until then, even after an out-of-hours reply, the bot starts afresh) */
  greeted?: boolean;
  /** the last customer message handled (a redelivery of it, or of an older one, does nothing) */
  lastMessageId?: number;
  /** an out-of-hours reply was sent; none again before this instant (the next opening) */
  quietUntil?: string;
  /** the Typebot session of the queue's integration, and when it last spoke */
  typebot?: { sessionId: string; at: string } | null;
}

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
