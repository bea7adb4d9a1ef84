import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'contacts' })
export class ContactEntity {
  @PrimaryGeneratedColumn() id: number;
  @Column({ type: 'int' }) companyId: number;
  @Column({ type: 'varchar', length: 100 }) name: string;
  @Column({ type: 'varchar', length: 64 }) number: string;
  @Column({ type: 'varchar', length: 200, default: '' }) email: string;
  @Column({ type: 'text', default: '' }) profilePicUrl: string;
  /** when the picture was last asked of WhatsApp (asked again a day later); null: never */
  @Column({ type: 'timestamptz', nullable: true }) profilePicCheckedAt: Date | null;
  @Column({ type: 'boolean', default: false }) isGroup: boolean;
  @Column({ type: 'jsonb', default: () => "'[]'" }) extraInfo: Array<{ name: string; value: string }>;
  @Column({ type: 'boolean', nullable: true }) isWhatsappValid: boolean | null;
  /** WhatsApp's linked identity (digits) this contact is known by besides its number; null while none is known */
  @Column({ type: 'varchar', length: 40, nullable: true }) lid: string | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
