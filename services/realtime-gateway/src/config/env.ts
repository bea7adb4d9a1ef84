import { MessagingEnv } from '@wa/server-kit';

export class RealtimeEnv extends MessagingEnv {
  override PORT: number = 3106;
}
