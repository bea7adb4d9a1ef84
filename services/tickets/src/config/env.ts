import { IsInt, Max, Min } from 'class-validator';
import { InfraEnv } from '@wa/server-kit';

export class TicketsEnv extends InfraEnv {
  override PORT: number = 3102;

  /** Inbound messages stored in one transaction at most. */
  @IsInt()
  @Min(1)
  @Max(500)
  INBOUND_BATCH_SIZE: number = 100;

  /** Conversations stored in parallel (each one in order). */
  @IsInt()
  @Min(1)
  @Max(64)
  INBOUND_CONCURRENCY: number = 8;

  /** How long JetStream waits for an ack before giving an inbound message to another process. */
  @IsInt()
  @Min(1000)
  INBOUND_ACK_WAIT_MS: number = 10000;
}
