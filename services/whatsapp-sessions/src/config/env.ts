import { InfraEnv } from '@wa/server-kit';

export class WhatsappSessionsEnv extends InfraEnv {
  override PORT: number = 3103;
}
