import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** One sign-in: the refresh tokens of one browser; ended by logout, reuse detection or a newer login. */
@Entity({ name: 'login_sessions' })
export class LoginSessionEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'int' })
  userId: number;

  @Column({ type: 'int' })
  companyId: number;

  @Column({ type: 'varchar', length: 64, nullable: true })
  ip: string | null;

  @Column({ type: 'varchar', length: 300, nullable: true })
  userAgent: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  @Column({ type: 'varchar', length: 20, nullable: true })
  revokedReason: 'logout' | 'replaced' | 'reuse' | 'user_deleted' | 'password_changed' | 'company_disabled' | null;
}
