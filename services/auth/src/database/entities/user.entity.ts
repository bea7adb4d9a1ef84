import type { AllTicket, Profile } from '@wa/contracts';
import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'users' })
export class UserEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'int' })
  companyId: number;

  @Column({ type: 'varchar', length: 50 })
  name: string;

  /** stored lower-case; unique across the platform (login is by email alone) */
  @Column({ type: 'varchar', length: 200 })
  email: string;

  @Column({ type: 'varchar', length: 200, select: false })
  passwordHash: string;

  /** set for a password someone else chose (the first super user): the user sets their own at first sign-in */
  @Column({ type: 'boolean', default: false })
  mustChangePassword: boolean;

  @Column({ type: 'varchar', length: 20, default: 'user' })
  profile: Profile;

  @Column({ type: 'boolean', default: false })
  super: boolean;

  @Column({ type: 'varchar', length: 10, default: 'desabled' })
  allTicket: AllTicket;

  @Column({ type: 'int', nullable: true })
  whatsappId: number | null;

  /** queue ids the user belongs to (queues are owned by tickets) */
  @Column({ type: 'int', array: true, default: () => "'{}'" })
  queueIds: number[];

  @Column({ type: 'boolean', default: false })
  online: boolean;

  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
