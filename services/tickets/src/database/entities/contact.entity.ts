import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'contacts' })
export class ContactEntity {
  @PrimaryGeneratedColumn() id: number;
  @Column({ type: 'int' }) companyId: number;
  @Column({ type: 'varchar', length: 100 }) name: string;
  @Column({ type: 'varchar', length: 64 }) number: string;
  @Column({ type: 'varchar', length: 200, default: '' }) email: string;
  @Column({ type: 'text', default: '' }) profilePicUrl: string;
  @Column({ type: 'boolean', default: false }) isGroup: boolean;
  @Column({ type: 'jsonb', default: () => "'[]'" }) extraInfo: Array<{ name: string; value: string }>;
  @Column({ type: 'boolean', nullable: true }) isWhatsappValid: boolean | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
