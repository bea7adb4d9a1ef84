import type { WorkingDay } from '@wa/domain';
import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'companies' })
export class CompanyEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  email: string | null;

  @Column({ type: 'varchar', length: 50, nullable: true })
  phone: string | null;

  @Column({ type: 'int' })
  planId: number;

  @Column({ type: 'boolean', default: true })
  status: boolean;

  /** YYYY-MM-DD */
  @Column({ type: 'date' })
  dueDate: string;

  @Column({ type: 'varchar', length: 20, default: 'MENSAL' })
  recurrence: string;

  /** working hours (spec 02 Horarios), used when the company's scheduleType setting is company */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  schedules: WorkingDay[];

  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
