import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** spec 02 "Announcement": a notice of the platform's super users to every company. */
@Entity({ name: 'announcements' })
export class AnnouncementEntity {
  @PrimaryGeneratedColumn() id: number;
  @Column({ type: 'varchar', length: 200 }) title: string;
  @Column({ type: 'text' }) text: string;
  /** 1 high, 2 medium, 3 low */
  @Column({ type: 'smallint', default: 3 }) priority: number;
  @Column({ type: 'boolean', default: true }) status: boolean;
  @Column({ type: 'varchar', length: 300, nullable: true }) mediaPath: string | null;
  @Column({ type: 'varchar', length: 300, nullable: true }) mediaName: string | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
