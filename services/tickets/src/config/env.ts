import { InfraEnv } from '@wa/server-kit';

export class TicketsEnv extends InfraEnv {
  override PORT: number = 3102;
}
