import type { ScheduleStatus } from '@wa/contracts';
import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** spec 01 §3 "Schedule": a message sent to a contact at `sendAt`. */
@Entity({ name: 'schedules' })
export class ScheduleEntity {
  @PrimaryGeneratedColumn() id: number;
  @Column({ type: 'int' }) companyId: number;
  @Column({ type: 'int' }) contactId: number;
  /** who scheduled it; the ticket it opens is theirs */
  @Column({ type: 'int' }) userId: number;
  @Column({ type: 'int', nullable: true }) ticketId: number | null;
  @Column({ type: 'text' }) body: string;
  @Column({ type: 'timestamptz' }) sendAt: Date;
  @Column({ type: 'timestamptz', nullable: true }) sentAt: Date | null;
  @Column({ type: 'varchar', length: 20, default: 'PENDENTE' }) status: ScheduleStatus;
  @Column({ type: 'text', nullable: true }) reason: string | null;
  @Column({ type: 'text', nullable: true }) mediaPath: string | null;
  @Column({ type: 'text', nullable: true }) mediaName: string | null;
  @Column({ type: 'varchar', length: 20, nullable: true }) mediaType: string | null;
  @Column({ type: 'varchar', length: 200, nullable: true }) mediaMimetype: string | null;
  @Column({ type: 'int', nullable: true }) mediaSize: number | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
