import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** An internal note on a ticket and its contact (spec 01 §3 "Ticket note"); never sent to the customer. */
@Entity({ name: 'ticket_notes' })
export class TicketNoteEntity {
  @PrimaryGeneratedColumn() id: number;
  @Column({ type: 'int' }) companyId: number;
  @Column({ type: 'int' }) ticketId: number;
  @Column({ type: 'int' }) contactId: number;
  @Column({ type: 'int' }) userId: number;
  /** the author's name when they wrote it */
  @Column({ type: 'varchar', length: 100, default: '' }) userName: string;
  @Column({ type: 'text' }) note: string;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}
