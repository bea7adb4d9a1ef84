import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** spec 02 "Prompt": an AI agent that answers a queue's customers. */
@Entity({ name: 'prompts' })
export class PromptEntity {
  @PrimaryGeneratedColumn() id: number;
  @Column({ type: 'int' }) companyId: number;
  @Column({ type: 'varchar', length: 100 }) name: string;
  @Column({ type: 'text' }) prompt: string;
  @Column({ type: 'varchar', length: 60, default: 'texto' }) voice: string;
  /** the voice service's key, sealed (SecretBox, stored-secrets.ts); answered masked */
  @Column({ type: 'text', nullable: true }) voiceKey: string | null;
  @Column({ type: 'varchar', length: 60, nullable: true }) voiceRegion: string | null;
  @Column({ type: 'int', default: 100 }) maxTokens: number;
  @Column({ type: 'real', default: 1 }) temperature: number;
  /** sealed (SecretBox); never returned whole */
  @Column({ type: 'text', nullable: true }) apiKey: string | null;
  @Column({ type: 'int' }) queueId: number;
  @Column({ type: 'int', default: 10 }) maxMessages: number;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
