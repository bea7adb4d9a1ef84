import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** spec 02 "Help": a help video of the platform (every company sees them). */
@Entity({ name: 'helps' })
export class HelpEntity {
  @PrimaryGeneratedColumn() id: number;
  @Column({ type: 'varchar', length: 100 }) title: string;
  @Column({ type: 'text', default: '' }) description: string;
  /** the video's code (a YouTube id) */
  @Column({ type: 'varchar', length: 100, default: '' }) video: string;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
