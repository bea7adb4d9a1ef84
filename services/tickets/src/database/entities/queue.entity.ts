import type { WorkingDay } from '@wa/domain';
import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'queues' })
export class QueueEntity {
  @PrimaryGeneratedColumn() id: number;
  @Column({ type: 'int' }) companyId: number;
  @Column({ type: 'varchar', length: 50 }) name: string;
  @Column({ type: 'varchar', length: 30 }) color: string;
  @Column({ type: 'text', default: '' }) greetingMessage: string;
  @Column({ type: 'text', default: '' }) outOfHoursMessage: string;
  @Column({ type: 'int', nullable: true }) orderQueue: number | null;
  /** its file (POST /queue/{id}/media-upload), sent with the greeting */
  @Column({ type: 'text', nullable: true }) mediaPath: string | null;
  @Column({ type: 'text', nullable: true }) mediaName: string | null;
  /** its working hours (used when the company's scheduleType is queue); none: no hours set */
  @Column({ type: 'jsonb', default: () => "'[]'" }) schedules: WorkingDay[];
  /** the AI prompt that answers its customers (PUT /queue promptId; a prompt's own queueId works too) */
  @Column({ type: 'int', nullable: true }) promptId: number | null;
  /** the outside flow answering its customers (webhook, n8n, Typebot, Dialogflow) */
  @Column({ type: 'int', nullable: true }) integrationId: number | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
