import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** spec 02 §3 "Plan": counts (0: no limit), price, feature flags; public ones are offered at sign-up. */
@Entity({ name: 'plans' })
export class PlanEntity {
  @PrimaryGeneratedColumn() id: number;
  @Column({ type: 'varchar', length: 100, unique: true }) name: string;
  @Column({ type: 'int', default: 0 }) users: number;
  @Column({ type: 'int', default: 0 }) connections: number;
  @Column({ type: 'int', default: 0 }) queues: number;
  @Column({ type: 'numeric', precision: 10, scale: 2, default: 0, transformer: { to: (v: number) => v, from: (v: string) => Number(v) } })
  value: number;
  @Column({ type: 'boolean', default: true }) useCampaigns: boolean;
  @Column({ type: 'boolean', default: true }) useKanban: boolean;
  @Column({ type: 'boolean', default: true }) useOpenAi: boolean;
  @Column({ type: 'boolean', default: true }) useIntegrations: boolean;
  @Column({ type: 'boolean', default: true }) useSchedules: boolean;
  @Column({ type: 'boolean', default: true }) useInternalChat: boolean;
  @Column({ type: 'boolean', default: true }) useExternalApi: boolean;
  @Column({ type: 'boolean', default: true }) isPublic: boolean;
  @Column({ type: 'int', default: 7 }) trialDays: number;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
