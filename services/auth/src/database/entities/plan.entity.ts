import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** Read model of billing's plans (billing owns them; auth needs the flags at login). */
@Entity({ name: 'plans' })
export class PlanEntity {
  /** billing's id */
  @PrimaryColumn({ type: 'int' })
  id: number;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'int', default: 0 })
  users: number;

  @Column({ type: 'int', default: 0 })
  connections: number;

  @Column({ type: 'int', default: 0 })
  queues: number;

  @Column({ type: 'numeric', precision: 10, scale: 2, default: 0, transformer: { to: (v: number) => v, from: (v: string) => Number(v) } })
  value: number;

  @Column({ type: 'boolean', default: true }) useCampaigns: boolean;
  @Column({ type: 'boolean', default: true }) useKanban: boolean;
  @Column({ type: 'boolean', default: true }) useOpenAi: boolean;
  @Column({ type: 'boolean', default: true }) useIntegrations: boolean;
  @Column({ type: 'boolean', default: true }) useSchedules: boolean;
  @Column({ type: 'boolean', default: true }) useInternalChat: boolean;
  @Column({ type: 'boolean', default: true }) useExternalApi: boolean;

  /** offered at sign-up */
  @Column({ type: 'boolean', default: true }) isPublic: boolean;
  /** days a company made at sign-up gets before its first due date */
  @Column({ type: 'int', default: 7 }) trialDays: number;

  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
