import { InfraEnv } from '@wa/server-kit';

export class BillingEnv extends InfraEnv {
  override PORT: number = 3105;
}
