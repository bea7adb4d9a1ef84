import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** spec 02 "Quick message": a shortcut an agent types as "/shortcode" in the chat input. */
@Entity({ name: 'quick_messages' })
export class QuickMessageEntity {
  @PrimaryGeneratedColumn() id: number;
  @Column({ type: 'int' }) companyId: number;
  /** who made it; only they (and admins) change it */
  @Column({ type: 'int' }) userId: number;
  @Column({ type: 'varchar', length: 100 }) shortcode: string;
  @Column({ type: 'text', default: '' }) message: string;
  /** shared with the whole company (otherwise its author's only) */
  @Column({ type: 'boolean', default: false }) geral: boolean;
  @Column({ type: 'boolean', default: false }) isMedia: boolean;
  @Column({ type: 'text', nullable: true }) mediaPath: string | null;
  @Column({ type: 'text', nullable: true }) mediaName: string | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
