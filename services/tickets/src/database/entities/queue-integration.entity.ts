import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export const INTEGRATION_TYPES = ['dialogflow', 'n8n', 'webhook', 'typebot'] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];

/** spec 02 "Queue integration": an outside flow that answers a queue's customers. */
@Entity({ name: 'queue_integrations' })
export class QueueIntegrationEntity {
  @PrimaryGeneratedColumn() id: number;
  @Column({ type: 'int' }) companyId: number;
  @Column({ type: 'varchar', length: 20 }) type: IntegrationType;
  @Column({ type: 'varchar', length: 50 }) name: string;
  @Column({ type: 'varchar', length: 100, default: '' }) projectName: string;
  /** Dialogflow's service-account JSON, sealed (SecretBox); never returned whole */
  @Column({ type: 'text', nullable: true }) jsonContent: string | null;
  @Column({ type: 'varchar', length: 10, default: '' }) language: string;
  @Column({ type: 'text', default: '' }) urlN8N: string;
  @Column({ type: 'varchar', length: 200, default: '' }) typebotSlug: string;
  /** minutes a Typebot session lasts without a message */
  @Column({ type: 'int', default: 1 }) typebotExpires: number;
  @Column({ type: 'varchar', length: 100, default: '' }) typebotKeywordFinish: string;
  @Column({ type: 'varchar', length: 100, default: '' }) typebotKeywordRestart: string;
  @Column({ type: 'text', default: '' }) typebotUnknownMessage: string;
  @Column({ type: 'text', default: '' }) typebotRestartMessage: string;
  /** ms between the messages of one Typebot answer */
  @Column({ type: 'int', default: 1000 }) typebotDelayMessage: number;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
