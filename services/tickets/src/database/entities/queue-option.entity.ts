import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** spec 02 "Queue option": one node of a queue's chatbot tree. */
@Entity({ name: 'queue_options' })
export class QueueOptionEntity {
  @PrimaryGeneratedColumn() id: number;
  @Column({ type: 'int' }) companyId: number;
  @Column({ type: 'int' }) queueId: number;
  /** the option it is under; null on the first level */
  @Column({ type: 'int', nullable: true }) parentId: number | null;
  @Column({ type: 'varchar', length: 100 }) title: string;
  @Column({ type: 'text', default: '' }) message: string;
  /** what the customer answers to pick it: 1 to 999, unique on its level */
  @Column({ type: 'varchar', length: 3 }) option: string;
  @Column({ type: 'text', nullable: true }) mediaPath: string | null;
  @Column({ type: 'text', nullable: true }) mediaName: string | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
