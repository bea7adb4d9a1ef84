import type { MediaType, MessageContactCard, MessageLocation, MessageReaction } from '@wa/contracts';

/** What a message carries besides its text and file (the `contents` JSON column). */
export interface MessageContents {
  voice?: boolean;
  location?: MessageLocation;
  contacts?: MessageContactCard[];
  reactions?: MessageReaction[];
}
import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

const bigintAsNumber = { to: (v: number | null) => v, from: (v: string | null) => (v === null ? null : Number(v)) };

@Entity({ name: 'messages' })
export class MessageEntity {
  // bigint: TypeORM hands it over as a string
  @PrimaryGeneratedColumn({ type: 'bigint' }) id: string;
  @Column({ type: 'int' }) companyId: number;
  @Column({ type: 'int' }) ticketId: number;
  @Column({ type: 'int', nullable: true }) contactId: number | null;
  @Column({ type: 'int' }) whatsappId: number;
  @Column({ type: 'varchar', length: 128 }) wid: string;
  @Column({ type: 'text', default: '' }) body: string;
  @Column({ type: 'boolean', default: false }) fromMe: boolean;
  @Column({ type: 'varchar', length: 30, default: 'chat' }) mediaType: MediaType;
  @Column({ type: 'text', nullable: true }) mediaUrl: string | null;
  @Column({ type: 'bigint', nullable: true, transformer: bigintAsNumber }) quotedMsgId: number | null;
  @Column({ type: 'smallint', default: 0 }) ack: number;
  /** why its send was given up (null: not given up, or it got through after all) */
  @Column({ type: 'text', nullable: true }) failedReason: string | null;
  @Column({ type: 'boolean', default: false }) read: boolean;
  @Column({ type: 'boolean', default: false }) isDeleted: boolean;
  @Column({ type: 'boolean', default: false }) isEdited: boolean;
  /** sent by the bot (the greeting, a menu, an out-of-hours or rating text), not by an agent */
  @Column({ type: 'boolean', default: false }) isBot: boolean;
  /** sent by the public messages API (POST /api/messages/send): the only messages GET /api/messages/{id} answers */
  @Column({ type: 'boolean', default: false }) viaApi: boolean;
  /** a voice note, a location, contact cards, reactions (null: none) */
  @Column({ type: 'jsonb', nullable: true }) contents?: MessageContents | null;
  @Column({ type: 'timestamptz' }) sentAt: Date;
  @Column({ type: 'bigint', nullable: true, transformer: bigintAsNumber }) seq: number | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}

/** A `tickets.messages` row read with plain SQL (`SELECT *`, `RETURNING *`), as the entity has it (bigint columns as TypeORM gives them). */
export function messageOfRow(
  r: Omit<MessageEntity, 'quotedMsgId' | 'seq' | 'id'> & {
    id: string | number;
    quotedMsgId: string | number | null;
    seq: string | number | null;
  },
): MessageEntity {
  return {
    ...r,
    id: String(r.id),
    quotedMsgId: r.quotedMsgId === null ? null : Number(r.quotedMsgId),
    seq: r.seq === null ? null : Number(r.seq),
  };
}
