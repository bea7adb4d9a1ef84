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
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
